// `sagelint iam-policy`: an IAM/SCP guardrail policy for the classes of the findings.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/alternatives.h"
#include "linter/cost/prices.h"
#include "linter/iam/iam_policy.h"

namespace sagelint::cli {

int CommandIamPolicy(const CliOptions& o) {
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  so.keep_workloads = false;
  ScanResult result = Scan(so);
  if (ReportMissing(result)) return 2;
  GuardrailOptions go;
  auto it = so.config.rules.find("SM204");
  if (it != so.config.rules.end() && it->second.options.count("max_keep_alive_seconds")) {
    go.max_keep_alive_seconds = it->second.options.at("max_keep_alive_seconds");
  }
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  go.endpoint_deny_families = TrainingFamiliesWithInferenceAlternative(table, OfferKind::kEndpoint);
  go.transform_deny_families = TrainingFamiliesWithInferenceAlternative(table, OfferKind::kTransform);
  nlohmann::json policy = BuildGuardrailPolicy(result.findings, o.lifecycle_arns, go);
  if (policy.at("Statement").empty()) {
    // IAM rejects a policy without statements: say why there is none instead.
    std::cerr << "sagelint: no IAM policy: no finding of the scan is of a class an IAM condition key can prevent\n";
  } else {
    WriteOutput("", policy.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    for (const std::string& note : GuardrailNotes(result.findings, o.lifecycle_arns)) {
      std::cerr << "note: " << Printable(note) << "\n";
    }
  }
  for (const CiOnlyClass& c : ClassesWithoutConditionKey(result.findings)) {
    std::cerr << "not enforceable by IAM: " << c.rule << " " << Printable(c.what) << "\n";
  }
  return 0;
}

}  // namespace sagelint::cli
