#include "rules/rule_util.h"

#include <cmath>
#include <cstdlib>

#include "linter/cost/prices.h"

namespace sagelint::rules {

void ForEachKnown(const Val& v, const std::function<void(const Val&)>& fn) {
  v.ForEach([&](const Val& alt) {
    if (alt.known()) fn(alt);
  });
}

void ForEachAbsent(const Workload& w, const Val& v, const std::function<void(const Val&)>& fn) {
  if (!w.complete) return;
  v.ForEach([&](const Val& alt) {
    if (alt.absent()) fn(alt);
  });
}

namespace {

const Val kNoCount;

bool HasCount(WorkloadKind kind) {
  return kind != WorkloadKind::kNotebookInstance && kind != WorkloadKind::kStudioDomain &&
         kind != WorkloadKind::kStudioUserProfile && kind != WorkloadKind::kStudioSpace &&
         kind != WorkloadKind::kStudioApp;
}

// Relative size of a size name: medium 1, large 2, xlarge 4, 2xlarge 8, 48xlarge 192.
std::optional<double> SizeRank(std::string_view size) {
  if (size == "nano") return 0.125;
  if (size == "micro") return 0.25;
  if (size == "small") return 0.5;
  if (size == "medium") return 1;
  if (size == "large") return 2;
  if (size == "xlarge") return 4;
  if (size.ends_with("xlarge")) {
    std::string n(size.substr(0, size.size() - 6));
    char* end = nullptr;
    long v = std::strtol(n.c_str(), &end, 10);
    if (!n.empty() && end == n.c_str() + n.size() && v > 0) return 4.0 * static_cast<double>(v);
  }
  return std::nullopt;
}

}  // namespace

void ForEachInstance(const Workload& w, const std::function<void(const InstanceUse&)>& fn) {
  const Val& count = HasCount(w.kind) ? w.instance_count : kNoCount;
  auto visit = [&](const Val& v, const Val& n, const std::string& group) {
    ForEachKnown(v, [&](const Val& t) {
      if (auto info = LookupInstance(t.text)) fn(InstanceUse{t, *info, n, group});
    });
  };
  visit(w.instance_type, count, "");
  for (const InstanceGroup& g : w.instance_groups) {
    visit(g.instance_type, g.instance_count, g.name.known() ? g.name.text : "?");
  }
  for (const StudioApp& app : w.apps) visit(app.instance_type, kNoCount, "");
}

double BilledCount(const Val& count) {
  auto n = count.number();
  return n && *n >= 1 ? *n : 1;
}

CostRequest Cost(std::string instance_type, double count, bool always_on, std::string cheaper_instance) {
  CostRequest c;
  c.instance_type = std::move(instance_type);
  c.count = count;
  c.always_on = always_on;
  c.cheaper_instance = std::move(cheaper_instance);
  return c;
}

CostRequest UseCost(const Workload& w, const InstanceUse& use, std::string cheaper_instance) {
  CostRequest c;
  c.instance_type = use.type.text;
  c.count = BilledCount(use.count);
  c.always_on = AlwaysOn(w);
  c.cheaper_instance = std::move(cheaper_instance);
  return c;
}

std::optional<CostRequest> WorkloadCost(const Workload& w) {
  const bool always_on = AlwaysOn(w);
  std::optional<CostRequest> cost;
  // The job's own type: with alternatives, the last known one (as findings did before).
  ForEachKnown(w.instance_type, [&](const Val& t) {
    cost = Cost(t.text, BilledCount(HasCount(w.kind) ? w.instance_count : kNoCount), always_on);
  });
  for (const InstanceGroup& g : w.instance_groups) {
    if (!g.instance_type.known()) continue;
    if (!cost) {
      cost = Cost(g.instance_type.text, BilledCount(g.instance_count), always_on);
    } else {
      cost->other_groups.emplace_back(g.instance_type.text, BilledCount(g.instance_count));
    }
  }
  return cost;
}

const PriceTable& Prices(const RuleContext& ctx) { return ctx.prices ? *ctx.prices : PriceTable::BuiltIn(); }

std::string_view SizeOf(std::string_view instance_type) {
  size_t dot = instance_type.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : instance_type.substr(dot + 1);
}

std::string NearestOffered(std::optional<OfferKind> kind, std::string_view family, std::string_view size) {
  std::string prefix = "ml." + std::string(family) + ".";
  std::vector<std::string> pool;
  if (kind) {
    for (const std::string& t : OfferedTypes(*kind)) {
      if (t.rfind(prefix, 0) == 0) pool.push_back(t);
    }
  } else {
    for (std::string_view s : {"medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "9xlarge", "12xlarge",
                               "16xlarge", "18xlarge", "24xlarge", "32xlarge", "48xlarge"}) {
      if (IsKnownInstanceType(prefix + std::string(s))) pool.push_back(prefix + std::string(s));
    }
  }
  auto want = SizeRank(size);
  std::string best;
  double best_distance = 0;
  double best_rank = 0;
  for (const std::string& t : pool) {
    if (SizeOf(t) == size) return t;
    auto rank = SizeRank(SizeOf(t));
    if (!rank || !want) continue;
    double distance = std::fabs(std::log(*rank / *want));
    if (best.empty() || distance < best_distance - 1e-9 ||
        (std::fabs(distance - best_distance) <= 1e-9 && *rank < best_rank)) {
      best = t;
      best_distance = distance;
      best_rank = *rank;
    }
  }
  return best;
}

std::string FirstOffered(std::optional<OfferKind> kind, std::initializer_list<std::string> candidates) {
  for (const std::string& c : candidates) {
    if (c.empty()) continue;
    if (!kind ? IsKnownInstanceType(c) : IsOffered(c, *kind)) return c;
  }
  return {};
}

Report At(const Val& v) {
  Report r;
  r.at = v.range;
  r.condition = v.condition;
  if (v.known()) r.value = v.text;
  return r;
}

std::string WholeSeconds(double seconds) { return std::to_string(static_cast<long long>(std::llround(seconds))); }

std::optional<double> MaxRunSeconds(const Workload& w) {
  if (w.max_run_seconds.absent()) return kDefaultMaxRunSeconds;
  if (w.max_run_seconds.known()) return w.max_run_seconds.number();
  return std::nullopt;
}

std::optional<FixChange> ReplaceChange(const Val& v, std::string text) {
  if (!v.known() || !v.literal.valid() || v.text == text) return std::nullopt;
  FixChange c;
  c.op = FixChange::Op::kReplace;
  c.path = v.literal_path;
  c.range = v.literal;
  c.text = v.text;
  c.value = std::move(text);
  return c;
}

FixChange InsertChange(const SourceRange& container, std::string field, std::string json) {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.range = container;
  c.field = std::move(field);
  c.value = std::move(json);
  return c;
}

std::optional<FixChange> RemoveChange(const Val& v, std::string field) {
  if (!v.range.valid() || v.conditional()) return std::nullopt;
  FixChange c;
  c.op = FixChange::Op::kRemove;
  c.range = v.range;
  c.field = std::move(field);
  return c;
}

std::optional<Fix> MakeFix(Applicability applicability, std::string message, std::vector<FixChange> changes) {
  if (changes.empty()) return std::nullopt;
  return Fix{applicability, std::move(message), std::move(changes), {}};
}

std::optional<Fix> InstanceTypeFix(const Val& v, const std::string& type, Applicability applicability) {
  if (type.empty()) return std::nullopt;
  std::optional<FixChange> c = ReplaceChange(v, type);
  if (!c) return std::nullopt;
  return MakeFix(applicability, "replace " + v.text + " with " + type, {std::move(*c)});
}

std::string NoReplaceReason(const Val& v) {
  if (v.conditional()) {
    std::string when;
    v.ForEach([&](const Val& a) {
      if (!a.condition.empty()) when += (when.empty() ? "" : "; ") + a.condition;
    });
    return "the value differs between alternatives" + (when.empty() ? std::string() : " (" + when + ")") +
           ": no one literal serves them all";
  }
  if (v.unknown()) {
    return "the value is not known from the files" + (v.origin.empty() ? std::string() : " (" + v.origin + ")");
  }
  if (v.absent()) return "the setting is not written: nothing literal to change";
  if (v.origin.empty()) return "the value is computed, not written as one literal sagelint can edit";
  return "the value comes from " + v.origin +
         ", which is not one literal of this workload alone (set outside the files, or read by something else too)";
}

namespace {

// Whether a container image is built for models compiled for one instance
// family: a SageMaker Neo or Inferentia (inf1) image.
bool FamilyPinnedImage(const std::string& image) {
  std::string repo = image.substr(0, image.find(':', image.rfind('/') == std::string::npos ? 0 : image.rfind('/')));
  for (std::string_view mark : {"-neo", "neo-", "inferentia"}) {
    if (repo.find(mark) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

void SetInstanceTypeFix(Report& r, const Workload& w, const Val& v, const std::string& type,
                        Applicability applicability) {
  std::string pinned;
  w.image.ForEach([&](const Val& i) {
    if (pinned.empty() && i.known() && FamilyPinnedImage(i.text)) pinned = i.text;
  });
  if (!pinned.empty()) {
    r.fix_unavailable = "the model's image (" + pinned +
                        ") serves models compiled for one instance family: a new instance type needs a new "
                        "compilation and image, so it is changed by hand";
    return;
  }
  if (type.empty()) {
    r.fix_unavailable = "no instance type offered for this workload qualifies as the replacement";
    return;
  }
  r.fix = InstanceTypeFix(v, type, applicability);
  if (!r.fix) r.fix_unavailable = NoReplaceReason(v);
}

}  // namespace sagelint::rules
