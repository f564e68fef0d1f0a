// Files that include the CUDA math libraries' and the reduced-precision
// headers (cuBLAS, cuBLASLt, cuda_fp16.h, cuda_bf16.h, mma.h, NVTX) parse with a
// toolkit and with the bundled declarations alike, with the same findings:
// without a toolkit every llm.c and SGEMM_CUDA file failed on cublas_v2.h.
//
// RUN: %expect-exit 1 %cuda-advisor --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda \
// RUN:   -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --checks='-*,access-uncoalesced,transfer-in-loop' \
// RUN:   %s -- -x cuda -std=c++17 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %expect-exit 1 %cuda-advisor --cuda-path=bundled --device-pass \
// RUN:   --checks='-*,access-uncoalesced,transfer-in-loop' %s -- -x cuda -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// REQUIRES: cuda

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

typedef __nv_bfloat16 bf16;

// A row per thread (positive) and a column per thread (negative), in bf16.
__global__ void rowMeans(bf16 *out, const bf16 *x, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    // CHECK: libraries.cu:[[@LINE+1]]:17: warning: uncoalesced global load of 'x'{{.*}}[access-uncoalesced]
    s += (float)x[r * cols + c];
  out[r] = (bf16)(s / cols);
}
__global__ void colMeans(bf16 *out, const bf16 *x, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r)
    s += __bfloat162float(x[r * cols + c]);
  out[c] = __float2bfloat16_rn(s / rows);
}

// Half precision and a 16x16x16 tensor-core tile.
__global__ void tileProduct(float *c, const __half *a, const __half *b) {
  namespace wmma = nvcuda::wmma;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

#define CHECK_BLAS(call)                                                                    \
  do {                                                                                      \
    cublasStatus_t st = (call);                                                             \
    if (st != CUBLAS_STATUS_SUCCESS)                                                        \
      printf("cublas error %d at %s:%d\n", (int)st, __FILE__, __LINE__);                    \
  } while (0)

// cuBLAS and cuBLASLt calls between kernels, and a download each step.
void project(float *dOut, const float *dW, const float *dIn, float *hOut, int m, int n, int k,
             int steps) {
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  CHECK_BLAS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
  cublasLtHandle_t lt;
  CHECK_BLAS(cublasLtCreate(&lt));
  cublasLtMatmulDesc_t desc;
  CHECK_BLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F));
  cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
  CHECK_BLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)));
  cublasLtMatmulHeuristicResult_t heuristic;
  (void)heuristic;
  const float one = 1.0f, zero = 0.0f;
  for (int s = 0; s < steps; ++s) {
    nvtxRangePush("step");
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, dW, k, dIn, k, &zero, dOut, n));
    CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dW, CUDA_R_32F, n, dIn,
                            CUDA_R_32F, k, &zero, dOut, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    // CHECK: libraries.cu:[[@LINE+1]]:5: warning: cudaMemcpy runs on every iteration of this loop{{.*}}[transfer-in-loop]
    cudaMemcpy(hOut, dOut, sizeof(float) * m * n, cudaMemcpyDeviceToHost);
    nvtxRangePop();
  }
  CHECK_BLAS(cublasLtMatmulDescDestroy(desc));
  CHECK_BLAS(cublasLtDestroy(lt));
  CHECK_BLAS(cublasDestroy(h));
}
