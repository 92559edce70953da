/*
 * The reader of decimal tables (see text_parse.h).  Two ways to a double:
 * the exact fast path (Clinger's: a mantissa below 2^53 times or divided by
 * a power of ten up to 1e22 is one correctly rounded IEEE operation on two
 * exact operands), and strtod for the rest (glibc's is correctly rounded,
 * as Python's float() is, so both give the same bits).  Only the spellings
 * Python's float() accepts reach either, less its extensions NumPy refuses
 * (underscores, non-ASCII digits); strtod's own extras (hex, nan(...)) are
 * refused before it is called.
 */
#include "text_parse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int is_blank(char c) { return c == ' ' || c == '\t'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* Whether [s, e) is `word`, ignoring case. */
static int is_word(const char *s, const char *e, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(e - s) != n) return 0;
  for (size_t i = 0; i < n; i++)
    if (lower(s[i]) != word[i]) return 0;
  return 1;
}

/* The number [s, e) (no surrounding blanks) into *v; 0 when it is not one
 * Python's float() reads (ASCII, no underscores). */
static int parse_double(const char *s, const char *e, double *v) {
  const char *p = s;
  int neg = 0;
  if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
  if (p < e && !is_digit(*p) && *p != '.') { /* inf, infinity, nan */
    if (is_word(p, e, "inf") || is_word(p, e, "infinity")) {
      *v = neg ? -HUGE_VAL : HUGE_VAL;
      return 1;
    }
    if (is_word(p, e, "nan")) {
      *v = neg ? -NAN : NAN;
      return 1;
    }
    return 0;
  }
  uint64_t mant = 0;
  int digits = 0, exp10 = 0, any = 0;
  for (; p < e && is_digit(*p); p++, any = 1) {
    if (mant == 0 && *p == '0') continue; /* leading zeros are not significant */
    if (digits < 19) mant = mant * 10 + (uint64_t)(*p - '0');
    else exp10++;
    digits++;
  }
  if (p < e && *p == '.') {
    for (p++; p < e && is_digit(*p); p++, any = 1) {
      if (mant == 0 && *p == '0') {
        exp10--;
        continue;
      }
      if (digits < 19) {
        mant = mant * 10 + (uint64_t)(*p - '0');
        exp10--;
      }
      digits++;
    }
  }
  if (!any) return 0; /* ".", "", "e5" */
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    int eneg = 0;
    if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    if (p == e || !is_digit(*p)) return 0;
    long ex = 0;
    for (; p < e && is_digit(*p); p++)
      if (ex < 100000) ex = ex * 10 + (*p - '0');
    exp10 += (int)(eneg ? -ex : ex);
  }
  if (p != e) return 0;
  if (digits <= 15 && mant < ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
    double m = (double)mant;
    *v = exp10 >= 0 ? m * POW10[exp10] : m / POW10[-exp10];
    if (neg) *v = -*v;
    return 1;
  }
  /* more digits or a larger exponent: strtod over a terminated copy (the
   * syntax is checked above, so strtod reads exactly [s, e)) */
  char tmp[128];
  size_t n = (size_t)(e - s);
  if (n >= sizeof tmp) return 0;
  memcpy(tmp, s, n);
  tmp[n] = '\0';
  char *end;
  *v = strtod(tmp, &end);
  return end == tmp + n;
}

/* The end of the line starting at p (its '\r' or '\n', or end). */
static const char *line_end(const char *p, const char *end) {
  while (p < end && *p != '\n' && *p != '\r') p++;
  return p;
}

/* The start of the next line after the line ending at p: "\r\n", "\r" and
 * "\n" each end one, as universal newlines read them. */
static const char *next_line(const char *p, const char *end) {
  if (p < end && *p == '\n') return p + 1;
  if (p < end && *p == '\r') {
    p++;
    if (p < end && *p == '\n') p++;
  }
  return p;
}

int ma_text_parse_f64(const char *buf, size_t len, const ma_text_format *fmt, double *out, int64_t cap,
                      int64_t *rows, int64_t *cols) {
  const char *p = buf, *end = buf + len;
  int64_t nrows = 0, ncols = -1, n = 0;
  *rows = 0;
  *cols = 0;
  for (int64_t i = 0; i < fmt->skiprows && p < end; i++) p = next_line(line_end(p, end), end);
  while (p < end && (fmt->max_rows < 0 || nrows < fmt->max_rows)) {
    const char *le = line_end(p, end);
    const char *ce = le; /* the content's end: the comment marker, or the line's */
    if (fmt->comment) {
      const char *c = memchr(p, fmt->comment, (size_t)(le - p));
      if (c) ce = c;
    }
    const char *q = p;
    p = next_line(le, end);
    if (fmt->delimiter == 0) {
      while (q < ce && is_blank(*q)) q++;
    }
    if (q == ce) { /* no data: skipped, and not counted as a row */
      if (fmt->max_rows >= 0) return MA_TEXT_GIVE_UP;
      continue;
    }
    int64_t col = 0;
    for (;;) {
      const char *fs = q, *fe;
      if (fmt->delimiter) {
        const char *d = memchr(q, fmt->delimiter, (size_t)(ce - q));
        fe = d ? d : ce;
      } else {
        fe = q;
        while (fe < ce && !is_blank(*fe)) fe++;
      }
      const char *a = fs, *b = fe;
      while (a < b && is_blank(*a)) a++;
      while (b > a && is_blank(b[-1])) b--;
      if (n >= cap || !parse_double(a, b, &out[n])) return MA_TEXT_GIVE_UP;
      n++;
      col++;
      if (fmt->delimiter) {
        if (fe == ce) break;
        q = fe + 1;
      } else {
        q = fe;
        while (q < ce && is_blank(*q)) q++;
        if (q == ce) break;
      }
    }
    if (ncols < 0) ncols = col;
    else if (col != ncols) return MA_TEXT_GIVE_UP;
    nrows++;
  }
  *rows = nrows;
  *cols = ncols < 0 ? 0 : ncols;
  return MA_TEXT_OK;
}
