/*
 * The DLPack ABI, version 1.3, written from the specification
 * (dmlc/dlpack include/dlpack/dlpack.h and docs/source/python_spec.rst).
 *
 * Every layout here is a binary contract shared with NumPy, PyTorch, JAX and
 * any other producer or consumer in the process: field order and widths must
 * never change.  tests/dlpack/test_abi.py checks sizes and offsets.
 */
#ifndef MINARRAY_DLPACK_H
#define MINARRAY_DLPACK_H

#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 3

#ifdef __cplusplus
extern "C" {
#endif

/* cdef-begin: the build script hands the declarations between these markers
 * to cffi verbatim, so the Python side sees the exact same layouts. */

/* The version a producer wrote into a DLManagedTensorVersioned.  A consumer
 * must check `major` before reading anything else (spec: "ABI stability"). */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Device types.  Stored as a 32-bit int inside DLDevice. */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3, /* pinned host memory, CPU-accessible */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11, /* pinned host memory, CPU-accessible */
  kDLExtDev = 12,
  kDLCUDAManaged = 13, /* unified memory, CPU-accessible */
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
  kDLTrn = 18,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id; /* 0 for the CPU */
} DLDevice;

typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
  /* v1.1: 8-, 6- and 4-bit floats */
  kDLFloat8_e3m4 = 7,
  kDLFloat8_e4m3 = 8,
  kDLFloat8_e4m3b11fnuz = 9,
  kDLFloat8_e4m3fn = 10,
  kDLFloat8_e4m3fnuz = 11,
  kDLFloat8_e5m2 = 12,
  kDLFloat8_e5m2fnuz = 13,
  kDLFloat8_e8m0fnu = 14,
  kDLFloat6_e2m3fn = 15,
  kDLFloat6_e3m2fn = 16,
  kDLFloat4_e2m1fn = 17,
} DLDataTypeCode;

/* (code, bits, lanes): float32 is (kDLFloat, 32, 1), bool is (kDLBool, 8, 1),
 * complex64 is (kDLComplex, 64, 1).  lanes > 1 means a vector type. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* A strided view.  Strides and byte_offset rules (spec, DLTensor):
 *  - strides count elements, not bytes;
 *  - strides may be NULL only when ndim == 0 (since 1.2; older producers used
 *    NULL to mean compact row-major, which consumers still accept);
 *  - the first element lives at (char *)data + byte_offset. */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

/* Legacy (pre-1.0) managed tensor, carried in a capsule named "dltensor".
 * It has no version and no flags: a consumer cannot know it is read-only. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

/* Versioned managed tensor (1.0+), carried in a capsule named
 * "dltensor_versioned".  The header promises that the fields up to and
 * including `flags` keep their layout across future ABI changes, major
 * versions included: a consumer can read `version`, and call the deleter of
 * a tensor whose major version it does not know. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

/* ---- The C exchange API (1.2; published as a capsule since 1.3) ----------
 * A library publishes one static DLPackExchangeAPI on its array *type* as the
 * attribute __dlpack_c_exchange_api__, a capsule named "dlpack_exchange_api".
 * Every function returns 0 on success and -1 with a Python error set. */
typedef int (*DLPackManagedTensorAllocator)(
    DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
    void (*SetError)(void *error_ctx, const char *kind, const char *message));
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(
    void *py_object, DLManagedTensorVersioned **out);
typedef int (*DLPackManagedTensorToPyObjectNoSync)(
    DLManagedTensorVersioned *tensor, void **out_py_object);
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void *py_object,
                                                DLTensor *out);
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type,
                                       int32_t device_id, void **out_stream);

typedef struct DLPackExchangeAPIHeader {
  DLPackVersion version;
  struct DLPackExchangeAPIHeader *prev_api;
} DLPackExchangeAPIHeader;

typedef struct DLPackExchangeAPI {
  DLPackExchangeAPIHeader header;
  DLPackManagedTensorAllocator managed_tensor_allocator;
  DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
  DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
  DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync; /* may be NULL */
  DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

/* cdef-end */

/* Flag bits of DLManagedTensorVersioned.flags. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

#ifdef __cplusplus
}
#endif
#endif /* MINARRAY_DLPACK_H */
