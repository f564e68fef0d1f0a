//===- JsonLine.h - Building one JSON Lines record -------------*- C++ -*-===//
//
// Part of the CUPTI collector: formats one profile record (one JSON object on
// one line) into a caller-owned std::string, so that the hot paths reuse their
// buffer and never allocate per record. Only what the profile format needs:
// unsigned and signed integers, booleans, strings (escaped), hex addresses and
// small integer arrays. docs/profile-format.md describes the records.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_COLLECTOR_JSONLINE_H
#define CUDA_ADVISOR_COLLECTOR_JSONLINE_H

#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

namespace cuda_advisor::collector {

class JsonLine {
public:
  /// Starts `{"type":"<Type>"` at the end of Out (which may hold earlier lines).
  JsonLine(std::string &Out, const char *Type) : Out(Out) {
    Out += "{\"type\":\"";
    Out += Type;
    Out += '"';
  }
  /// Starts a record without a type (the header).
  explicit JsonLine(std::string &Out) : Out(Out) { Out += '{'; First = true; }

  JsonLine &num(const char *Key, uint64_t V) {
    key(Key);
    appendUnsigned(V);
    return *this;
  }
  JsonLine &snum(const char *Key, int64_t V) {
    key(Key);
    char Buf[24];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), V);
    Out.append(Buf, R.ptr);
    return *this;
  }
  JsonLine &boolean(const char *Key, bool V) {
    key(Key);
    Out += V ? "true" : "false";
    return *this;
  }
  JsonLine &str(const char *Key, const char *V) {
    key(Key);
    appendString(V ? V : "", V ? std::strlen(V) : 0);
    return *this;
  }
  JsonLine &str(const char *Key, const std::string &V) {
    key(Key);
    appendString(V.data(), V.size());
    return *this;
  }
  /// An address as a "0x..." string (JSON numbers lose 64-bit precision in
  /// many readers).
  JsonLine &hex(const char *Key, uint64_t V) {
    key(Key);
    appendHexString(V);
    return *this;
  }
  JsonLine &triple(const char *Key, uint64_t A, uint64_t B, uint64_t C) {
    key(Key);
    Out += '[';
    appendUnsigned(A);
    Out += ',';
    appendUnsigned(B);
    Out += ',';
    appendUnsigned(C);
    Out += ']';
    return *this;
  }
  JsonLine &pair(const char *Key, uint64_t A, uint64_t B) {
    key(Key);
    Out += '[';
    appendUnsigned(A);
    Out += ',';
    appendUnsigned(B);
    Out += ']';
    return *this;
  }
  /// `"Key":[` ... `]` of hex strings.
  JsonLine &hexArray(const char *Key, const uintptr_t *V, size_t N) {
    key(Key);
    Out += '[';
    for (size_t I = 0; I < N; ++I) {
      if (I)
        Out += ',';
      appendHexString(V[I]);
    }
    Out += ']';
    return *this;
  }
  /// `"Key":[` ... `]` of strings.
  JsonLine &strArray(const char *Key, const std::string *V, size_t N) {
    key(Key);
    Out += '[';
    for (size_t I = 0; I < N; ++I) {
      if (I)
        Out += ',';
      appendString(V[I].data(), V[I].size());
    }
    Out += ']';
    return *this;
  }
  /// `"Key":[` ... `]` of unsigned numbers.
  JsonLine &numArray(const char *Key, const uint64_t *V, size_t N) {
    key(Key);
    Out += '[';
    for (size_t I = 0; I < N; ++I) {
      if (I)
        Out += ',';
      appendUnsigned(V[I]);
    }
    Out += ']';
    return *this;
  }
  /// Inserts already formatted JSON as the value of Key.
  JsonLine &raw(const char *Key, const std::string &Json) {
    key(Key);
    Out += Json;
    return *this;
  }
  /// Closes the object and the line.
  void end() { Out += "}\n"; }

  /// Appends V to Out as a JSON string literal (with quotes).
  static void quote(std::string &Out, const char *V, size_t N) {
    JsonLine L(Out, nullptr, 0);
    L.appendString(V, N);
  }

private:
  JsonLine(std::string &Out, std::nullptr_t, int) : Out(Out) {}

  void key(const char *K) {
    if (!First)
      Out += ',';
    First = false;
    Out += '"';
    Out += K;
    Out += "\":";
  }
  void appendUnsigned(uint64_t V) {
    char Buf[24];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), V);
    Out.append(Buf, R.ptr);
  }
  void appendHexString(uint64_t V) {
    char Buf[24];
    auto R = std::to_chars(Buf, Buf + sizeof(Buf), V, 16);
    Out += "\"0x";
    Out.append(Buf, R.ptr);
    Out += '"';
  }
  void appendString(const char *S, size_t N) {
    static const char Hex[] = "0123456789abcdef";
    Out += '"';
    for (size_t I = 0; I < N; ++I) {
      unsigned char C = static_cast<unsigned char>(S[I]);
      switch (C) {
      case '"':
        Out += "\\\"";
        break;
      case '\\':
        Out += "\\\\";
        break;
      case '\n':
        Out += "\\n";
        break;
      case '\r':
        Out += "\\r";
        break;
      case '\t':
        Out += "\\t";
        break;
      default:
        if (C < 0x20 || C == 0x7f) {
          Out += "\\u00";
          Out += Hex[C >> 4];
          Out += Hex[C & 15];
        } else if (C < 0x80) {
          Out += static_cast<char>(C);
        } else if (size_t Len = utf8SequenceLength(S + I, N - I)) {
          Out.append(S + I, Len); // Valid UTF-8 passes through.
          I += Len - 1;
        } else {
          // A byte that is not valid UTF-8 (a path in another encoding): keep
          // the file valid JSON by writing it as the code point of that byte.
          Out += "\\u00";
          Out += Hex[C >> 4];
          Out += Hex[C & 15];
        }
      }
    }
    Out += '"';
  }
  /// Length of the valid UTF-8 sequence at S (first byte >= 0x80), or 0.
  static size_t utf8SequenceLength(const char *S, size_t Avail) {
    auto B = [&](size_t I) { return static_cast<unsigned char>(S[I]); };
    unsigned char C = B(0);
    size_t Len = C >= 0xc2 && C <= 0xdf   ? 2
                 : C >= 0xe0 && C <= 0xef ? 3
                 : C >= 0xf0 && C <= 0xf4 ? 4
                                          : 0;
    if (Len == 0 || Len > Avail)
      return 0;
    for (size_t I = 1; I < Len; ++I)
      if ((B(I) & 0xc0) != 0x80)
        return 0;
    if (Len == 3 && ((B(0) == 0xe0 && B(1) < 0xa0) || (B(0) == 0xed && B(1) >= 0xa0)))
      return 0; // Overlong or a surrogate.
    if (Len == 4 && ((B(0) == 0xf0 && B(1) < 0x90) || (B(0) == 0xf4 && B(1) >= 0x90)))
      return 0;
    return Len;
  }

  std::string &Out;
  bool First = false;
};

} // namespace cuda_advisor::collector

#endif
