#include "linter/engine/finding_pool.h"

#include <iterator>
#include <utility>
#include <vector>

namespace sagelint {
namespace {

// An IAM hint as one text: each of its strings as its length, ':' and itself.
void AppendPart(std::string& text, std::string_view part) {
  text += std::to_string(part.size());
  text += ':';
  text += part;
}

std::string IamText(const IamHint& hint) {
  std::string text;
  AppendPart(text, hint.condition_key);
  for (const std::string& action : hint.actions) AppendPart(text, action);
  return text;
}

IamHint IamFromText(std::string_view text) {
  std::vector<std::string> parts;
  while (!text.empty()) {
    size_t colon = text.find(':');
    size_t length = std::stoul(std::string(text.substr(0, colon)));
    parts.emplace_back(text.substr(colon + 1, length));
    text.remove_prefix(colon + 1 + length);
  }
  IamHint hint;
  hint.condition_key = std::move(parts.front());
  hint.actions.assign(std::make_move_iterator(parts.begin() + 1), std::make_move_iterator(parts.end()));
  return hint;
}

std::string Text(const std::string* text) { return text ? *text : std::string(); }

}  // namespace

const std::string* FindingPool::Intern(std::string_view text) {
  if (text.empty()) return nullptr;
  auto it = texts_.find(text);
  if (it == texts_.end()) it = texts_.emplace(text).first;
  return &*it;
}

PackedFinding FindingPool::Pack(const Finding& f) {
  PackedFinding p;
  p.range = f.range;
  p.resource_range = f.resource_range;
  p.severity = f.severity;
  p.format = f.format;
  p.member_kind = f.member_of.kind;
  p.member_count = f.member_of.of;
  std::lock_guard<std::mutex> lock(mu_);
  p.member_construct = Intern(f.member_of.construct);
  p.member_key = Intern(f.member_of.key);
  p.rule = Intern(f.rule);
  p.name = Intern(f.name);
  p.path = Intern(f.path);
  p.root_path = Intern(f.root_path);
  p.resource = Intern(f.resource);
  p.message = Intern(f.message);
  p.suggestion = Intern(f.suggestion);
  p.condition = Intern(f.condition);
  p.value = Intern(f.value);
  p.fingerprint = Intern(f.fingerprint);
  if (f.iam) p.iam = Intern(IamText(*f.iam));  // never empty: at least the key's length
  if (f.fix) p.fix = Intern(FixToText(*f.fix));
  p.fix_unavailable = Intern(f.fix_unavailable);
  if (f.cost) {
    const CostEstimate& c = *f.cost;
    p.cost = PackedFinding::Cost{Intern(c.instance_type),
                                 Intern(c.basis),
                                 Intern(c.price_source),
                                 Intern(c.price_date),
                                 c.count,
                                 c.hourly_usd,
                                 c.monthly_usd,
                                 c.monthly_savings_usd};
  }
  return p;
}

Finding FindingPool::Unpack(const PackedFinding& p) {
  Finding f;
  f.rule = Text(p.rule);
  f.name = Text(p.name);
  f.severity = p.severity;
  f.path = Text(p.path);
  f.root_path = Text(p.root_path);
  f.range = p.range;
  f.resource_range = p.resource_range;
  f.resource = Text(p.resource);
  f.message = Text(p.message);
  f.suggestion = Text(p.suggestion);
  f.condition = Text(p.condition);
  f.value = Text(p.value);
  if (p.iam) f.iam = IamFromText(*p.iam);
  if (p.cost) {
    const PackedFinding::Cost& c = *p.cost;
    f.cost = CostEstimate{Text(c.instance_type), c.count,       c.hourly_usd,         c.monthly_usd,
                          c.monthly_savings_usd, Text(c.basis), Text(c.price_source), Text(c.price_date)};
  }
  if (p.fix) f.fix = FixFromText(*p.fix);
  f.fix_unavailable = Text(p.fix_unavailable);
  f.fingerprint = Text(p.fingerprint);
  f.format = p.format;
  f.member_of = ConstructMember{p.member_kind, Text(p.member_construct), Text(p.member_key), p.member_count};
  return f;
}

}  // namespace sagelint
