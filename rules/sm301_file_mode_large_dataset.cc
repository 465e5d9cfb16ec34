// SM301 file-mode-large-dataset: a File-mode channel copies the whole dataset
// to the training volume before the script starts; the instances bill while
// it downloads.
#include <optional>
#include <string>

#include "linter/cost/datasets.h"
#include "rules/checks_cost.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

std::string Both(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + " and " + b;
}

// The condition under which a mode value means File ("" = always): absent
// means `inherited` (nullopt = the inherited mode is not File or unknown).
std::optional<std::string> FileWhen(const Val& mode, const std::optional<std::string>& inherited) {
  if (mode.absent()) return inherited;
  if (mode.known()) return mode.text == "File" ? std::optional<std::string>("") : std::nullopt;
  std::optional<std::string> result;
  mode.ForEach([&](const Val& alt) {
    if (result) return;
    if (alt.absent() && inherited) result = Both(alt.condition, *inherited);
    if (alt.known() && alt.text == "File") result = alt.condition;
  });
  return result;
}

struct Size {
  double gb = 0;
  std::string source;
};

// The channel's dataset size from the scan's sources or its annotation.
std::optional<Size> KnownSize(const Channel& ch, const RuleContext& ctx) {
  if (ctx.datasets != nullptr && ch.s3_uri.known()) {
    if (auto s = ctx.datasets->Lookup(ch.s3_uri.text)) return Size{s->gb, "size from " + s->source};
  }
  if (auto gb = ch.dataset_size_gb.number()) return Size{*gb, "size from the sagelint:dataset-size annotation"};
  return std::nullopt;
}

// The channel's mode set to FastFile (README "Fixes"): its own literal, else the
// job's literal, else the job's mode added where neither is written.
std::optional<Fix> FastFileFix(const Workload& w, const Channel& ch) {
  std::optional<FixChange> change;
  if (ch.input_mode.present()) {
    change = ReplaceChange(ch.input_mode, "FastFile");
  } else if (w.input_mode.present()) {
    change = ReplaceChange(w.input_mode, "FastFile");
  } else if (w.kind == WorkloadKind::kTrainingJob && w.complete) {
    change = InsertChange(w.range, "input_mode", "\"FastFile\"");
  }
  if (!change) return std::nullopt;
  return MakeFix(Applicability::kUnsafe, "read the input in FastFile mode", {std::move(*change)});
}

}  // namespace

void CheckFileModeLargeDataset(const Workload& w, const RuleContext& ctx, Sink& sink) {
  const double threshold = ctx.Option("threshold_gb");
  std::optional<std::string> job_file = FileWhen(w.input_mode, std::string());
  for (const Channel& ch : w.channels) {
    // EFS / FSx inputs are mounted, not copied.
    if (ch.file_system) continue;
    std::optional<std::string> when = FileWhen(ch.input_mode, job_file);
    if (!when) continue;
    // Only a stated size is evidence: the training volume is sized for
    // weights and checkpoints, not for the data.
    std::optional<Size> size = KnownSize(ch, ctx);
    if (!size || size->gb < threshold) continue;
    Report r;
    r.at = ch.input_mode.present() && ch.input_mode.range.valid() ? ch.input_mode.range : ch.range;
    r.message = w.label + ": channel '" + ch.name + "' reads " + FormatGb(size->gb) + " in File mode (" + size->source +
                "): File mode copies the whole dataset to the training volume before the script starts, "
                "and the instances bill while it downloads";
    r.suggestion =
        "set the channel's input mode to FastFile, which streams from S3 behind a file interface; "
        "for many small files use FSx for Lustre (a file system input)";
    r.condition = *when;
    r.cost = WorkloadCost(w);
    r.fix = FastFileFix(w, ch);
    sink.Emit(w, std::move(r));
  }
}

}  // namespace sagelint::rules
