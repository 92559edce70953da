/*
 * Tables of decimal numbers in text: the plain-C reader behind
 * minarray.loadtxt's fast path.  It reads a whole buffer (a file's bytes)
 * into float64 values, row after row, and gives up on anything it does not
 * read exactly as NumPy's loadtxt would; minarray/_text_io.py then reads
 * the text again in Python, which words NumPy's errors.  It never needs
 * the GIL.
 */
#ifndef MA_TEXT_PARSE_H
#define MA_TEXT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* How a table is laid out. */
typedef struct {
  char delimiter;   /* between fields; 0: runs of spaces and tabs */
  char comment;     /* from it to the line's end is ignored; 0: none */
  int64_t skiprows; /* lines skipped first, whatever they hold */
  int64_t max_rows; /* rows read at most; -1: all */
} ma_text_format;

/* What ma_text_parse_f64 returns. */
enum {
  MA_TEXT_OK = 0,
  MA_TEXT_GIVE_UP = 1, /* input the Python reader must read (or refuse) */
};

/* Reads the table in buf[0, len) into out (at most cap values, row-major),
 * and sets *rows and *cols (0 and 0 for no rows).  Returns MA_TEXT_GIVE_UP,
 * with out partly written, for: a field that is not a decimal number, inf
 * or nan in Python's spelling (surrounding spaces and tabs allowed); rows
 * of different widths; a line without data while max_rows limits the rows
 * (NumPy then warns); more than cap values; a byte outside ASCII in a
 * field. */
int ma_text_parse_f64(const char *buf, size_t len, const ma_text_format *fmt, double *out, int64_t cap,
                      int64_t *rows, int64_t *cols);

#endif
