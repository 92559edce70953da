/*
 * Test support (csrc/py/testing.c): a fake DLPack producer in C whose deleters
 * count their calls exactly, on any thread, with or without the GIL.
 */
#ifndef MINARRAY_TESTING_H
#define MINARRAY_TESTING_H

#include <stdint.h>

#include "dlpack.h"

/* cdef-begin: declared to cffi too (the tests call these through lib) */
/* What a fake managed tensor's manager_ctx points at. */
typedef struct {
  int64_t calls;        /* deleter calls, updated atomically */
  uint64_t last_thread; /* PyThread_get_thread_ident() of the last call */
} ma_test_counter;

/* Deleters that count into *(ma_test_counter *)self->manager_ctx and free
 * nothing (the test owns the struct, so a second call is seen, not a
 * double free). */
void ma_test_deleter_versioned(DLManagedTensorVersioned *self);
void ma_test_deleter_legacy(DLManagedTensor *self);
int64_t ma_test_calls(const ma_test_counter *c);
/* A producer's capsule destructor, and the capsule contexts telling it
 * which struct a capsule holds (versioned or legacy). */
void *ma_test_capsule_destructor(void);
void *ma_test_context(int versioned);
/* A DLPackExchangeAPI whose managed_tensor_from_py_object_no_sync returns
 * the struct at the address in the object's `_ma_test_tensor` attribute. */
void *ma_test_exchange_api(void);
/* cdef-end */

#endif
