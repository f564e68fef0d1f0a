//===- Transport.h - JSON-RPC messages framed by Content-Length -*- C++ -*-===//
//
// The base protocol of LSP: each message is "Content-Length: N\r\n" (other
// headers allowed), an empty line, and N bytes of JSON. Reading never throws
// away the stream on a bad message: a header without a usable length is
// reported and the reader goes on with the next header block.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_ADVISOR_LSP_TRANSPORT_H
#define CUDA_ADVISOR_LSP_TRANSPORT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <string>

namespace cuda_advisor::lsp {

struct RawMessage {
  enum Kind { Body, BadHeader, End } What = End;
  std::string Text; ///< The body, or why the header was rejected.
};

/// Reads the next message from In. End at the end of the stream (also in
/// the middle of a message).
RawMessage readMessage(std::FILE *In);

/// Writes framed messages; safe to call from several threads.
class MessageWriter {
public:
  explicit MessageWriter(llvm::raw_ostream &OS) : OS(OS) {}
  void send(llvm::json::Value Message);

private:
  std::mutex Lock;
  llvm::raw_ostream &OS;
};

} // namespace cuda_advisor::lsp

#endif
