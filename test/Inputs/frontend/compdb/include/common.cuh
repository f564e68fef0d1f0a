// Found through the -I of the "command" entry of compile_commands.json.
#pragma once
#include <cuda_runtime.h>
#define CHUNK_BYTES 4096
