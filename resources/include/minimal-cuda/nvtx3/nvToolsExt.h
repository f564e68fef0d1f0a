/* cuda-advisor bundled minimal CUDA declarations: nvtx3/nvToolsExt.h, the
 * NVTX ranges and markers that code annotates for profilers. Written for
 * cuda-advisor (declarations only); names and signatures follow NVTX 3. */
#ifndef CUDA_ADVISOR_NVTOOLSEXT_H
#define CUDA_ADVISOR_NVTOOLSEXT_H
#define NVTOOLSEXT_H_
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;
typedef struct nvtxEventAttributes_v2 {
  uint16_t version, size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType, reserved0;
  union { uint64_t ullValue; int64_t llValue; double dValue; uint32_t uiValue; int32_t iValue; float fValue; } payload;
  int32_t messageType;
  union { const char *ascii; const wchar_t *unicode; nvtxStringHandle_t registered; } message;
} nvtxEventAttributes_t;
#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))
#define NVTX_COLOR_ARGB 1
#define NVTX_MESSAGE_TYPE_ASCII 1
void nvtxInitialize(const void *reserved);
void nvtxMarkA(const char *message);
void nvtxMarkEx(const nvtxEventAttributes_t *eventAttrib);
nvtxRangeId_t nvtxRangeStartA(const char *message);
nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *eventAttrib);
void nvtxRangeEnd(nvtxRangeId_t id);
int nvtxRangePushA(const char *message);
int nvtxRangePushEx(const nvtxEventAttributes_t *eventAttrib);
int nvtxRangePop(void);
void nvtxNameOsThreadA(uint32_t threadId, const char *name);
nvtxDomainHandle_t nvtxDomainCreateA(const char *name);
void nvtxDomainDestroy(nvtxDomainHandle_t domain);
int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *eventAttrib);
int nvtxDomainRangePop(nvtxDomainHandle_t domain);
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainCreate nvtxDomainCreateA
#ifdef __cplusplus
}
#endif
#endif
