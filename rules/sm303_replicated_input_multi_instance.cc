// SM303 replicated-input-multi-instance: with FullyReplicated every instance
// downloads every object, multiplying transfer time (billed) by the instance count.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckReplicatedInputMultiInstance(const Workload& w, const RuleContext&, Sink& sink) {
  auto count = w.instance_count.number();
  if (!count || *count <= 1) return;
  for (const Channel& c : w.channels) {
    if (c.file_system || c.code) continue;  // code and configuration: every instance needs all of it
    const Val& d = c.distribution;
    bool replicated = (d.known() && d.text == "FullyReplicated") || (d.absent() && w.complete);
    if (!replicated) continue;
    Report r = At(d);
    if (!r.at.valid()) r.at = c.range.valid() ? c.range : w.range;
    r.message = w.label + " runs on " + w.instance_count.text + " instances and reads input '" + c.name +
                "' FullyReplicated" + (d.absent() ? " (the default)" : "") + ": every instance downloads every object";
    r.suggestion =
        "set s3_data_distribution_type=\"ShardedByS3Key\" (S3DataDistributionType) so each instance "
        "reads its own share";
    sink.Emit(w, std::move(r));
  }
}

}  // namespace sagelint::rules
