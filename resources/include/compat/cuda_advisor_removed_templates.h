/* cuda-advisor compat: the C++ side of the texture and surface references
 * that CUDA 12.0 removed (texture<>, surface<>, their bind templates and the
 * device functions that read through them), so that legacy code can still be
 * analyzed. Declarations only: nothing here is ever compiled to code.
 *
 * Included after cuda_runtime.h, and only when CUDART_VERSION >= 12000.
 * Marked with CUDA_ADVISOR_REMOVED like cuda_advisor_removed_api.h.
 */
#ifndef CUDA_ADVISOR_REMOVED_TEMPLATES_H
#define CUDA_ADVISOR_REMOVED_TEMPLATES_H

/* CUDA_ADVISOR_NO_TEXTURE_REFERENCES: cuda-advisor parses a file again with
 * it when these templates clash with the file's own global `texture` or
 * `surface` (see docs/frontend.md). */
#if defined(__cplusplus) && defined(CUDART_VERSION) && CUDART_VERSION >= 12000 &&           \
    !defined(__CUDA_TEXTURE_TYPES_H__) && !defined(CUDA_ADVISOR_NO_TEXTURE_REFERENCES)

#include "cuda_advisor_removed_api.h"

/* ----- Types -------------------------------------------------------------- */

template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __device_builtin_texture_type__ CUDA_ADVISOR_REMOVED(
    "texture<>", "12.0", "use a cudaTextureObject_t made with cudaCreateTextureObject")
    texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = aMode;
    addressMode[1] = aMode;
    addressMode[2] = aMode;
    channelDesc = cudaCreateChannelDesc<T>();
    sRGB = 0;
  }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode, struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = aMode;
    addressMode[1] = aMode;
    addressMode[2] = aMode;
    channelDesc = desc;
    sRGB = 0;
  }
};

template <class T, int dim = 1>
struct __device_builtin_surface_type__ CUDA_ADVISOR_REMOVED(
    "surface<>", "12.0", "use a cudaSurfaceObject_t made with cudaCreateSurfaceObject")
    surface : public surfaceReference {
  __host__ surface() { channelDesc = cudaCreateChannelDesc<T>(); }
  __host__ surface(struct cudaChannelFormatDesc desc) { channelDesc = desc; }
};

template <int dim>
struct __device_builtin_surface_type__ CUDA_ADVISOR_REMOVED(
    "surface<>", "12.0", "use a cudaSurfaceObject_t made with cudaCreateSurfaceObject")
    surface<void, dim> : public surfaceReference {
  __host__ surface() { channelDesc = cudaCreateChannelDesc<void>(); }
};

/* ----- Host: binding ------------------------------------------------------ */

#define CUDA_ADVISOR_BIND(Api)                                                              \
  CUDA_ADVISOR_REMOVED(Api, "12.0", "create a texture object with cudaCreateTextureObject")

template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr,
                const struct cudaChannelFormatDesc &desc,
                size_t size = UINT_MAX) CUDA_ADVISOR_BIND("cudaBindTexture");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex, const void *devPtr,
                size_t size = UINT_MAX) CUDA_ADVISOR_BIND("cudaBindTexture");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc, size_t width,
                  size_t height, size_t pitch) CUDA_ADVISOR_BIND("cudaBindTexture2D");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, size_t width, size_t height,
                  size_t pitch) CUDA_ADVISOR_BIND("cudaBindTexture2D");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex, cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc)
    CUDA_ADVISOR_BIND("cudaBindTextureToArray");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                       cudaArray_const_t array) CUDA_ADVISOR_BIND("cudaBindTextureToArray");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray,
                                const struct cudaChannelFormatDesc &desc)
    CUDA_ADVISOR_BIND("cudaBindTextureToMipmappedArray");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaBindTextureToMipmappedArray(const struct texture<T, dim, readMode> &tex,
                                cudaMipmappedArray_const_t mipmappedArray)
    CUDA_ADVISOR_BIND("cudaBindTextureToMipmappedArray");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaUnbindTexture(const struct texture<T, dim, readMode> &tex)
    CUDA_ADVISOR_REMOVED("cudaUnbindTexture", "12.0", "use cudaDestroyTextureObject");
template <class T, int dim, enum cudaTextureReadMode readMode>
__host__ cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset, const struct texture<T, dim, readMode> &tex)
    CUDA_ADVISOR_REMOVED("cudaGetTextureAlignmentOffset", "12.0", "use a texture object");
template <class T, int dim>
__host__ cudaError_t
cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc)
    CUDA_ADVISOR_REMOVED("cudaBindSurfaceToArray", "12.0",
                         "create a surface object with cudaCreateSurfaceObject");
template <class T, int dim>
__host__ cudaError_t
cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array)
    CUDA_ADVISOR_REMOVED("cudaBindSurfaceToArray", "12.0",
                         "create a surface object with cudaCreateSurfaceObject");
#undef CUDA_ADVISOR_BIND

/* ----- Device: fetching through texture references ------------------------ */

/* What a fetch returns: the element type, or for cudaReadModeNormalizedFloat
 * a float vector of the same width. */
template <class T, enum cudaTextureReadMode M> struct __cuda_advisor_tex_ret {
  typedef T type;
};
#define CUDA_ADVISOR_NORM(T, F)                                                             \
  template <> struct __cuda_advisor_tex_ret<T, cudaReadModeNormalizedFloat> {               \
    typedef F type;                                                                         \
  };
CUDA_ADVISOR_NORM(char, float)
CUDA_ADVISOR_NORM(signed char, float)
CUDA_ADVISOR_NORM(unsigned char, float)
CUDA_ADVISOR_NORM(short, float)
CUDA_ADVISOR_NORM(unsigned short, float)
CUDA_ADVISOR_NORM(char1, float1)
CUDA_ADVISOR_NORM(uchar1, float1)
CUDA_ADVISOR_NORM(short1, float1)
CUDA_ADVISOR_NORM(ushort1, float1)
CUDA_ADVISOR_NORM(char2, float2)
CUDA_ADVISOR_NORM(uchar2, float2)
CUDA_ADVISOR_NORM(short2, float2)
CUDA_ADVISOR_NORM(ushort2, float2)
CUDA_ADVISOR_NORM(char4, float4)
CUDA_ADVISOR_NORM(uchar4, float4)
CUDA_ADVISOR_NORM(short4, float4)
CUDA_ADVISOR_NORM(ushort4, float4)
#undef CUDA_ADVISOR_NORM

/* tex2Dgather returns four texels of one component. */
template <class T, enum cudaTextureReadMode M> struct __cuda_advisor_tex_gather {
  typedef float4 type;
};
#define CUDA_ADVISOR_GATHER(T, V)                                                           \
  template <> struct __cuda_advisor_tex_gather<T, cudaReadModeElementType> {                \
    typedef V type;                                                                         \
  };
CUDA_ADVISOR_GATHER(char, char4)
CUDA_ADVISOR_GATHER(signed char, char4)
CUDA_ADVISOR_GATHER(unsigned char, uchar4)
CUDA_ADVISOR_GATHER(short, short4)
CUDA_ADVISOR_GATHER(unsigned short, ushort4)
CUDA_ADVISOR_GATHER(int, int4)
CUDA_ADVISOR_GATHER(unsigned int, uint4)
CUDA_ADVISOR_GATHER(char1, char4)
CUDA_ADVISOR_GATHER(uchar1, uchar4)
CUDA_ADVISOR_GATHER(short1, short4)
CUDA_ADVISOR_GATHER(ushort1, ushort4)
CUDA_ADVISOR_GATHER(int1, int4)
CUDA_ADVISOR_GATHER(uint1, uint4)
CUDA_ADVISOR_GATHER(char2, char4)
CUDA_ADVISOR_GATHER(uchar2, uchar4)
CUDA_ADVISOR_GATHER(short2, short4)
CUDA_ADVISOR_GATHER(ushort2, ushort4)
CUDA_ADVISOR_GATHER(int2, int4)
CUDA_ADVISOR_GATHER(uint2, uint4)
CUDA_ADVISOR_GATHER(char4, char4)
CUDA_ADVISOR_GATHER(uchar4, uchar4)
CUDA_ADVISOR_GATHER(short4, short4)
CUDA_ADVISOR_GATHER(ushort4, ushort4)
CUDA_ADVISOR_GATHER(int4, int4)
CUDA_ADVISOR_GATHER(uint4, uint4)
#undef CUDA_ADVISOR_GATHER

#define CUDA_ADVISOR_TEXREF(Api)                                                            \
  CUDA_ADVISOR_REMOVED(Api, "12.0", "fetch from a cudaTextureObject_t with " Api "<T>")
#define CUDA_ADVISOR_FETCH(Api, TexType, ...)                                              \
  template <class T, enum cudaTextureReadMode M>                                           \
  __device__ typename __cuda_advisor_tex_ret<T, M>::type Api(texture<T, TexType, M> t,     \
                                                              __VA_ARGS__)                 \
      CUDA_ADVISOR_TEXREF(#Api);

CUDA_ADVISOR_FETCH(tex1Dfetch, cudaTextureType1D, int x)
CUDA_ADVISOR_FETCH(tex1D, cudaTextureType1D, float x)
CUDA_ADVISOR_FETCH(tex2D, cudaTextureType2D, float x, float y)
CUDA_ADVISOR_FETCH(tex3D, cudaTextureType3D, float x, float y, float z)
CUDA_ADVISOR_FETCH(tex1DLayered, cudaTextureType1DLayered, float x, int layer)
CUDA_ADVISOR_FETCH(tex2DLayered, cudaTextureType2DLayered, float x, float y, int layer)
CUDA_ADVISOR_FETCH(texCubemap, cudaTextureTypeCubemap, float x, float y, float z)
CUDA_ADVISOR_FETCH(texCubemapLayered, cudaTextureTypeCubemapLayered, float x, float y, float z,
                   int layer)
CUDA_ADVISOR_FETCH(tex1DLod, cudaTextureType1D, float x, float level)
CUDA_ADVISOR_FETCH(tex2DLod, cudaTextureType2D, float x, float y, float level)
CUDA_ADVISOR_FETCH(tex3DLod, cudaTextureType3D, float x, float y, float z, float level)
CUDA_ADVISOR_FETCH(tex1DLayeredLod, cudaTextureType1DLayered, float x, int layer, float level)
CUDA_ADVISOR_FETCH(tex2DLayeredLod, cudaTextureType2DLayered, float x, float y, int layer,
                   float level)
CUDA_ADVISOR_FETCH(texCubemapLod, cudaTextureTypeCubemap, float x, float y, float z,
                   float level)
CUDA_ADVISOR_FETCH(tex1DGrad, cudaTextureType1D, float x, float dPdx, float dPdy)
CUDA_ADVISOR_FETCH(tex2DGrad, cudaTextureType2D, float x, float y, float2 dPdx, float2 dPdy)
CUDA_ADVISOR_FETCH(tex3DGrad, cudaTextureType3D, float x, float y, float z, float4 dPdx,
                   float4 dPdy)
CUDA_ADVISOR_FETCH(tex1DLayeredGrad, cudaTextureType1DLayered, float x, int layer, float dPdx,
                   float dPdy)
CUDA_ADVISOR_FETCH(tex2DLayeredGrad, cudaTextureType2DLayered, float x, float y, int layer,
                   float2 dPdx, float2 dPdy)
#undef CUDA_ADVISOR_FETCH

template <class T, enum cudaTextureReadMode M>
__device__ typename __cuda_advisor_tex_gather<T, M>::type
tex2Dgather(texture<T, cudaTextureType2D, M> t, float x, float y, int comp = 0)
    CUDA_ADVISOR_TEXREF("tex2Dgather");
#undef CUDA_ADVISOR_TEXREF

/* ----- Device: surface references ----------------------------------------- */

#define CUDA_ADVISOR_SURFREF(Api)                                                           \
  CUDA_ADVISOR_REMOVED(Api, "12.0", "access a cudaSurfaceObject_t with " Api)
#define CUDA_ADVISOR_SURF(Read, Write, SurfType, ...)                                      \
  template <class T>                                                                       \
  __device__ T Read(surface<void, SurfType> surf, __VA_ARGS__,                             \
                    enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)              \
      CUDA_ADVISOR_SURFREF(#Read);                                                         \
  template <class T>                                                                       \
  __device__ void Read(T *res, surface<void, SurfType> surf, __VA_ARGS__,                  \
                       enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)           \
      CUDA_ADVISOR_SURFREF(#Read);                                                         \
  template <class T>                                                                       \
  __device__ void Write(T val, surface<void, SurfType> surf, __VA_ARGS__,                  \
                        enum cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap)          \
      CUDA_ADVISOR_SURFREF(#Write);

CUDA_ADVISOR_SURF(surf1Dread, surf1Dwrite, cudaSurfaceType1D, int x)
CUDA_ADVISOR_SURF(surf2Dread, surf2Dwrite, cudaSurfaceType2D, int x, int y)
CUDA_ADVISOR_SURF(surf3Dread, surf3Dwrite, cudaSurfaceType3D, int x, int y, int z)
CUDA_ADVISOR_SURF(surf1DLayeredread, surf1DLayeredwrite, cudaSurfaceType1DLayered, int x,
                  int layer)
CUDA_ADVISOR_SURF(surf2DLayeredread, surf2DLayeredwrite, cudaSurfaceType2DLayered, int x, int y,
                  int layer)
CUDA_ADVISOR_SURF(surfCubemapread, surfCubemapwrite, cudaSurfaceTypeCubemap, int x, int y,
                  int face)
CUDA_ADVISOR_SURF(surfCubemapLayeredread, surfCubemapLayeredwrite, cudaSurfaceTypeCubemapLayered,
                  int x, int y, int layerFace)
#undef CUDA_ADVISOR_SURF
#undef CUDA_ADVISOR_SURFREF

#endif
#endif /* CUDA_ADVISOR_REMOVED_TEMPLATES_H */
