// sagelint: flags -> config -> discover files -> parse -> model -> rules -> emit.
// Everything lives in the library (linter/cli.h); this only wires it.
#include "linter/cli/cli.h"

int main(int argc, char** argv) { return sagelint::RunCli(argc, argv); }
