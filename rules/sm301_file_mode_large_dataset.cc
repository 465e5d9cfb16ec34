// SM301 file-mode-large-dataset: a File-mode channel copies the whole dataset
// to the training volume before the script starts; the instances bill while
// it downloads.
#include <optional>
#include <string>

#include "linter/cost/datasets.h"
#include "rules/checks_cost.h"

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

}  // namespace

void CheckFileModeLargeDataset(const Workload& w, const RuleContext& ctx, Sink& sink) {
  const double threshold = ctx.Option("threshold_gb");
  std::optional<std::string> job_file = FileWhen(w.input_mode, std::string());
  std::optional<double> volume = w.volume_gb.number();
  bool inferred_reported = false;
  for (const Channel& ch : w.channels) {
    if (ch.file_system) continue;
    std::optional<std::string> when = FileWhen(ch.input_mode, job_file);
    if (!when) continue;
    std::optional<Size> size = KnownSize(ch, ctx);
    std::string what;
    if (size) {
      if (size->gb < threshold) continue;
      what = "reads " + FormatGb(size->gb) + " in File mode (" + size->source + ")";
    } else {
      if (inferred_reported || !volume || *volume < threshold) continue;
      inferred_reported = true;
      what = "reads in File mode with a " + FormatGb(*volume) + " training volume (dataset size inferred from the volume, ≥ " +
             FormatGb(threshold) + ")";
    }
    Report r;
    r.at = ch.input_mode.present() && ch.input_mode.range.valid() ? ch.input_mode.range : ch.range;
    r.message = w.label + ": channel '" + ch.name + "' " + what +
                ": File mode copies the whole dataset to the training volume before the script starts, "
                "and the instances bill while it downloads";
    r.suggestion = "set the channel's input mode to FastFile, which streams from S3 behind a file interface; "
                   "for many small files use FSx for Lustre (a file system input)";
    r.condition = *when;
    if (w.instance_type.known()) {
      CostRequest cost;
      cost.instance_type = w.instance_type.text;
      cost.count = w.instance_count.absent() ? 1 : w.instance_count.number().value_or(0);
      if (cost.count > 0) r.cost = cost;
    }
    sink.Emit(w, std::move(r));
  }
}

}  // namespace sagelint::rules
