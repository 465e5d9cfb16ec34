// A Sink that keeps what rules report, for rule tests.
#ifndef SAGELINT_TESTS_RULES_CAPTURE_SINK_H_
#define SAGELINT_TESTS_RULES_CAPTURE_SINK_H_

#include <vector>

#include "linter/model/rule.h"

namespace sagelint::testing {

class CaptureSink : public Sink {
 public:
  void Emit(const Workload&, Report r) override { reports.push_back(std::move(r)); }
  std::vector<Report> reports;
};

}  // namespace sagelint::testing

#endif  // SAGELINT_TESTS_RULES_CAPTURE_SINK_H_
