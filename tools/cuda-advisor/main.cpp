//===- main.cpp - cuda-advisor --------------------------------------------===//
#include "cuda-advisor/Driver/Driver.h"

int main(int Argc, char **Argv) { return cuda_advisor::driver::main(Argc, Argv); }
