// Found through the -isystem= of the "arguments" entry.
#pragma once
#define VENDOR_COUNT 16
