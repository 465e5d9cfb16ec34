// A stable text dump of the normalized model, for golden tests and
// `--dump-model` debugging.
#ifndef SAGELINT_LINTER_REPORT_MODEL_DUMP_H_
#define SAGELINT_LINTER_REPORT_MODEL_DUMP_H_

#include <string>

#include "linter/model/model.h"

namespace sagelint {

std::string DumpVal(const Val& v);
std::string DumpWorkload(const Workload& w);
std::string DumpFileResult(const FileResult& r);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_MODEL_DUMP_H_
