//===- Evidence.h - Typed evidence keys of Rules.def ------------*- C++ -*-===//
//
// A finding's evidence is a JSON object (it travels in the JSON and SARIF
// reports, the result cache and merged shards), but the checks that write it
// and the cost model that reads it name each key through one constant
// declared in Rules.def, with its type: a misspelled key or a mismatched
// type does not compile.
//
//   setEvidence(F, evidence::LoopInvariant, true);
//   std::optional<bool> Inv = getEvidence(F, evidence::LoopInvariant);
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_CORE_EVIDENCE_H
#define CUDA_ADVISOR_CORE_EVIDENCE_H

#include "cuda-advisor/Core/Finding.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace cuda_advisor {

namespace evidence_types {
using Bool = bool;
using Int = int64_t;
using Double = double;
using String = std::string;
using Array = llvm::json::Array;
} // namespace evidence_types

template <class T> struct EvidenceKey {
  const char *Name; ///< The JSON key.
};

namespace evidence {
#define CUDA_ADVISOR_EVIDENCE(Key, Name, Type, Help)                                        \
  inline constexpr EvidenceKey<evidence_types::Type> Key{Name};
#include "cuda-advisor/Core/Rules.def"
} // namespace evidence

/// What a setter takes for a key of type T: T itself (no deduction, so an
/// argument converts to the key's type), and any string for a String.
template <class T> struct Exactly {
  using type = T;
};
template <> struct Exactly<std::string> {
  using type = llvm::StringRef;
};

/// Sets key K of F's evidence to V.
template <class T>
void setEvidence(Finding &F, EvidenceKey<T> K, typename Exactly<T>::type V) {
  if constexpr (std::is_same_v<T, std::string>)
    F.Evidence[K.Name] = V.str(); // a json::Value of a StringRef would not own it
  else
    F.Evidence[K.Name] = std::move(V);
}
/// Sets key K of F's evidence to null: "not known".
template <class T> void setEvidenceUnknown(Finding &F, EvidenceKey<T> K) {
  F.Evidence[K.Name] = nullptr;
}

/// Key K of F's evidence; nullopt when absent, null or of another type. A
/// Double accepts an integer (JSON does not keep 2.0 apart from 2).
template <class T> std::optional<T> getEvidence(const Finding &F, EvidenceKey<T> K) {
  const llvm::json::Value *V = F.Evidence.get(K.Name);
  if (!V)
    return std::nullopt;
  if constexpr (std::is_same_v<T, bool>) {
    return V->getAsBoolean();
  } else if constexpr (std::is_same_v<T, int64_t>) {
    if (std::optional<int64_t> I = V->getAsInteger())
      return I;
    return std::nullopt;
  } else if constexpr (std::is_same_v<T, double>) {
    return V->getAsNumber();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (std::optional<llvm::StringRef> S = V->getAsString())
      return S->str();
    return std::nullopt;
  } else {
    if (const llvm::json::Array *A = V->getAsArray())
      return *A;
    return std::nullopt;
  }
}
/// Whether F's evidence has key K at all (null included).
template <class T> bool hasEvidence(const Finding &F, EvidenceKey<T> K) {
  return F.Evidence.get(K.Name) != nullptr;
}

} // namespace cuda_advisor

#endif
