//===- Registry.h - The checks, as listed in Rules.def --------*- C++ -*-===//
#ifndef CUDA_ADVISOR_CHECKS_REGISTRY_H
#define CUDA_ADVISOR_CHECKS_REGISTRY_H

#include "cuda-advisor/Core/CheckInfo.h"
#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/Finding.h"

#include <memory>
#include <vector>

namespace clang {
class ASTConsumer;
}

namespace cuda_advisor::checks {

/// The ASTConsumer that runs the checks Cfg enables over a TU and appends
/// their findings to Sink.
std::unique_ptr<clang::ASTConsumer> makeCheckConsumer(const Config &Cfg,
                                                      std::vector<Finding> &Sink,
                                                      std::string ResourceDir, bool DevicePass);

} // namespace cuda_advisor::checks

#endif
