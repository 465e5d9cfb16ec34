#include "linter/cache/codec.h"

#include <cstring>
#include <optional>

namespace sagelint::cache {

void Writer::U32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
}

void Writer::U64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
}

void Writer::Str(std::string_view s) {
  U32(static_cast<std::uint32_t>(s.size()));
  out_.append(s);
}

bool Reader::Need(size_t n) {
  if (!ok_ || in_.size() < n) {
    ok_ = false;
    return false;
  }
  return true;
}

std::uint8_t Reader::U8() {
  if (!Need(1)) return 0;
  auto v = static_cast<std::uint8_t>(in_[0]);
  in_.remove_prefix(1);
  return v;
}

std::uint32_t Reader::U32() {
  if (!Need(4)) return 0;
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<std::uint8_t>(in_[i])} << (8 * i);
  in_.remove_prefix(4);
  return v;
}

std::uint64_t Reader::U64() {
  if (!Need(8)) return 0;
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{static_cast<std::uint8_t>(in_[i])} << (8 * i);
  in_.remove_prefix(8);
  return v;
}

bool Reader::Bool() {
  std::uint8_t v = U8();
  if (v > 1) ok_ = false;
  return v == 1;
}

std::string Reader::Str() {
  std::uint32_t n = U32();
  if (!Need(n)) return {};
  std::string s(in_.substr(0, n));
  in_.remove_prefix(n);
  return s;
}

std::string_view Reader::Raw(size_t n) {
  if (!Need(n)) return {};
  std::string_view s = in_.substr(0, n);
  in_.remove_prefix(n);
  return s;
}

std::uint32_t Reader::Count(size_t min_bytes) {
  std::uint32_t n = U32();
  if (!ok_) return 0;
  if (min_bytes > 0 && n > in_.size() / min_bytes) {
    ok_ = false;
    return 0;
  }
  return n;
}

std::uint8_t Reader::Enum(std::uint8_t count) {
  std::uint8_t v = U8();
  if (v >= count) {
    ok_ = false;
    return 0;
  }
  return v;
}

namespace {

// Conditional values nest (an Fn::If inside an Fn::If); a hostile entry could nest without end.
constexpr int kMaxValDepth = 64;

void Put(Writer& w, const SourcePos& p) {
  w.I32(p.line);
  w.I32(p.column);
}
void Get(Reader& in, SourcePos& p) {
  p.line = in.I32();
  p.column = in.I32();
}

void Put(Writer& w, const SourceRange& r) {
  Put(w, r.begin);
  Put(w, r.end);
  w.I32(r.cell);
  w.I32(r.cell_line);
}
void Get(Reader& in, SourceRange& r) {
  Get(in, r.begin);
  Get(in, r.end);
  r.cell = in.I32();
  r.cell_line = in.I32();
}

void PutStrings(Writer& w, const std::vector<std::string>& v) {
  w.U32(static_cast<std::uint32_t>(v.size()));
  for (const std::string& s : v) w.Str(s);
}
void GetStrings(Reader& in, std::vector<std::string>& v) {
  std::uint32_t n = in.Count(4);
  v.clear();
  v.reserve(n);
  for (std::uint32_t i = 0; i < n && in.ok(); ++i) v.push_back(in.Str());
}

void Put(Writer& w, const Val& v) {
  w.U8(static_cast<std::uint8_t>(v.state));
  w.Str(v.text);
  Put(w, v.range);
  w.Str(v.origin);
  w.Str(v.condition);
  w.U32(static_cast<std::uint32_t>(v.alternatives.size()));
  for (const Val& a : v.alternatives) Put(w, a);
  Put(w, v.literal);
  w.Str(v.literal_path);
}
void Get(Reader& in, Val& v, int depth = 0) {
  if (depth > kMaxValDepth) {
    in.Fail();
    return;
  }
  v.state = static_cast<Val::State>(in.Enum(3));
  v.text = in.Str();
  Get(in, v.range);
  v.origin = in.Str();
  v.condition = in.Str();
  std::uint32_t n = in.Count(16);
  v.alternatives.resize(n);
  for (Val& a : v.alternatives) {
    if (!in.ok()) break;
    Get(in, a, depth + 1);
  }
  Get(in, v.literal);
  v.literal_path = in.Str();
}

void PutVals(Writer& w, const std::vector<Val>& v) {
  w.U32(static_cast<std::uint32_t>(v.size()));
  for (const Val& x : v) Put(w, x);
}
void GetVals(Reader& in, std::vector<Val>& v) {
  v.resize(in.Count(16));
  for (Val& x : v) {
    if (!in.ok()) break;
    Get(in, x);
  }
}

void Put(Writer& w, const ParseError& e) {
  w.Str(e.message);
  Put(w, e.pos);
  w.I32(e.cell);
  w.I32(e.cell_line);
}
void Get(Reader& in, ParseError& e) {
  e.message = in.Str();
  Get(in, e.pos);
  e.cell = in.I32();
  e.cell_line = in.I32();
}

void PutErrors(Writer& w, const std::vector<ParseError>& v) {
  w.U32(static_cast<std::uint32_t>(v.size()));
  for (const ParseError& e : v) Put(w, e);
}
void GetErrors(Reader& in, std::vector<ParseError>& v) {
  v.resize(in.Count(20));
  for (ParseError& e : v) {
    if (!in.ok()) break;
    Get(in, e);
  }
}

void Put(Writer& w, const Channel& c) {
  w.Str(c.name);
  Put(w, c.s3_uri);
  Put(w, c.input_mode);
  Put(w, c.distribution);
  Put(w, c.dataset_size_gb);
  w.Bool(c.file_system);
  Put(w, c.range);
  Put(w, c.s3_data_type);
  w.Bool(c.code);
}
void Get(Reader& in, Channel& c) {
  c.name = in.Str();
  Get(in, c.s3_uri);
  Get(in, c.input_mode);
  Get(in, c.distribution);
  Get(in, c.dataset_size_gb);
  c.file_system = in.Bool();
  Get(in, c.range);
  Get(in, c.s3_data_type);
  c.code = in.Bool();
}

void Put(Writer& w, const StudioApp& a) {
  w.Str(a.app);
  w.Str(a.scope);
  Put(w, a.instance_type);
  Put(w, a.idle_management);
  Put(w, a.idle_timeout_minutes);
  Put(w, a.range);
}
void Get(Reader& in, StudioApp& a) {
  a.app = in.Str();
  a.scope = in.Str();
  Get(in, a.instance_type);
  Get(in, a.idle_management);
  Get(in, a.idle_timeout_minutes);
  Get(in, a.range);
}

void Put(Writer& w, const InstanceGroup& g) {
  Put(w, g.name);
  Put(w, g.instance_type);
  Put(w, g.instance_count);
  Put(w, g.range);
}
void Get(Reader& in, InstanceGroup& g) {
  Get(in, g.name);
  Get(in, g.instance_type);
  Get(in, g.instance_count);
  Get(in, g.range);
}

void Put(Writer& w, const IamCondition& c) {
  w.Str(c.op);
  w.Str(c.key);
  PutStrings(w, c.values);
  w.Bool(c.known);
}
void Get(Reader& in, IamCondition& c) {
  c.op = in.Str();
  c.key = in.Str();
  GetStrings(in, c.values);
  c.known = in.Bool();
}

void Put(Writer& w, const IamStatement& s) {
  Put(w, s.effect);
  PutVals(w, s.actions);
  w.Bool(s.not_action);
  w.Bool(s.actions_complete);
  PutVals(w, s.resources);
  w.Bool(s.not_resource);
  w.U32(static_cast<std::uint32_t>(s.conditions.size()));
  for (const IamCondition& c : s.conditions) Put(w, c);
  w.Bool(s.conditions_known);
  w.Str(s.policy);
  w.Str(s.managed_policy);
  PutStrings(w, s.trusted_services);
}
void Get(Reader& in, IamStatement& s) {
  Get(in, s.effect);
  GetVals(in, s.actions);
  s.not_action = in.Bool();
  s.actions_complete = in.Bool();
  GetVals(in, s.resources);
  s.not_resource = in.Bool();
  s.conditions.resize(in.Count(13));
  for (IamCondition& c : s.conditions) {
    if (!in.ok()) break;
    Get(in, c);
  }
  s.conditions_known = in.Bool();
  s.policy = in.Str();
  s.managed_policy = in.Str();
  GetStrings(in, s.trusted_services);
}

void Put(Writer& w, const ConstructMember& m) {
  w.U8(static_cast<std::uint8_t>(m.kind));
  w.Str(m.construct);
  w.Str(m.key);
  w.I32(m.of);
}
void Get(Reader& in, ConstructMember& m) {
  m.kind = static_cast<ConstructMember::Kind>(in.Enum(3));
  m.construct = in.Str();
  m.key = in.Str();
  m.of = in.I32();
}

void Put(Writer& w, const std::optional<ModuleCaller>& c) {
  w.Bool(c.has_value());
  if (!c) return;
  w.Str(c->path);
  Put(w, c->call);
  w.U32(static_cast<std::uint32_t>(c->values.size()));
  for (const ModuleCaller::Value& v : c->values) {
    Put(w, v.at);
    w.Str(v.path);
    Put(w, v.src);
  }
}
void Get(Reader& in, std::optional<ModuleCaller>& c) {
  if (!in.Bool()) {
    c.reset();
    return;
  }
  c.emplace();
  c->path = in.Str();
  Get(in, c->call);
  c->values.resize(in.Count(36));
  for (ModuleCaller::Value& v : c->values) {
    if (!in.ok()) break;
    Get(in, v.at);
    v.path = in.Str();
    Get(in, v.src);
  }
}

void Put(Writer& w, const Workload& x);
void Get(Reader& in, Workload& x);

template <typename T>
void PutList(Writer& w, const std::vector<T>& v) {
  w.U32(static_cast<std::uint32_t>(v.size()));
  for (const T& x : v) Put(w, x);
}
template <typename T>
void GetList(Reader& in, std::vector<T>& v, size_t min_bytes) {
  v.resize(in.Count(min_bytes));
  for (T& x : v) {
    if (!in.ok()) break;
    Get(in, x);
  }
}

void Put(Writer& w, const Workload& x) {
  w.U8(static_cast<std::uint8_t>(x.kind));
  w.U8(static_cast<std::uint8_t>(x.format));
  w.Str(x.path);
  w.Str(x.scope);
  w.Str(x.name);
  w.Str(x.label);
  Put(w, x.range);
  w.Str(x.condition);
  Put(w, x.member_of);
  w.Bool(x.complete);
  PutStrings(w, x.suppressed);
  w.Bool(x.stand_in);
  Put(w, x.module_caller);
  for (const Val* v : {&x.instance_type, &x.instance_count, &x.volume_gb}) Put(w, *v);
  PutList(w, x.instance_groups);
  for (const Val* v : {&x.image, &x.framework, &x.spot, &x.max_run_seconds, &x.max_wait_seconds, &x.checkpoint,
                       &x.output_path, &x.keep_alive_seconds, &x.input_mode}) {
    Put(w, *v);
  }
  PutList(w, x.channels);
  for (const Val* v :
       {&x.accelerator_type, &x.serverless, &x.async_inference, &x.managed_scaling, &x.endpoint_name, &x.variant_name,
        &x.copy_count, &x.accelerators_required, &x.memory_required_mb, &x.cpu_cores_required, &x.deleted}) {
    Put(w, *v);
  }
  w.Str(x.delete_statement);
  w.Str(x.delete_capture);
  Put(w, x.delete_capture_at);
  for (const Val* v : {&x.service_namespace, &x.resource_id, &x.scalable_dimension, &x.min_capacity, &x.max_capacity,
                       &x.lifecycle_config, &x.on_start, &x.on_create}) {
    Put(w, *v);
  }
  PutList(w, x.apps);
  Put(w, x.iam);
  PutStrings(w, x.keys);
  PutStrings(w, x.refs);
  for (const Val* v : {&x.autoscaling, &x.idle_stop, &x.idle_shutdown}) Put(w, *v);
}
void Get(Reader& in, Workload& x) {
  x.kind = static_cast<WorkloadKind>(in.Enum(kWorkloadKindCount));
  x.format = static_cast<Format>(in.Enum(5));
  x.path = in.Str();
  x.scope = in.Str();
  x.name = in.Str();
  x.label = in.Str();
  Get(in, x.range);
  x.condition = in.Str();
  Get(in, x.member_of);
  x.complete = in.Bool();
  GetStrings(in, x.suppressed);
  x.stand_in = in.Bool();
  Get(in, x.module_caller);
  for (Val* v : {&x.instance_type, &x.instance_count, &x.volume_gb}) Get(in, *v);
  GetList(in, x.instance_groups, 16);
  for (Val* v : {&x.image, &x.framework, &x.spot, &x.max_run_seconds, &x.max_wait_seconds, &x.checkpoint,
                 &x.output_path, &x.keep_alive_seconds, &x.input_mode}) {
    Get(in, *v);
  }
  GetList(in, x.channels, 16);
  for (Val* v :
       {&x.accelerator_type, &x.serverless, &x.async_inference, &x.managed_scaling, &x.endpoint_name, &x.variant_name,
        &x.copy_count, &x.accelerators_required, &x.memory_required_mb, &x.cpu_cores_required, &x.deleted}) {
    Get(in, *v);
  }
  x.delete_statement = in.Str();
  x.delete_capture = in.Str();
  Get(in, x.delete_capture_at);
  for (Val* v : {&x.service_namespace, &x.resource_id, &x.scalable_dimension, &x.min_capacity, &x.max_capacity,
                 &x.lifecycle_config, &x.on_start, &x.on_create}) {
    Get(in, *v);
  }
  GetList(in, x.apps, 16);
  Get(in, x.iam);
  GetStrings(in, x.keys);
  GetStrings(in, x.refs);
  for (Val* v : {&x.autoscaling, &x.idle_stop, &x.idle_shutdown}) Get(in, *v);
}

}  // namespace

void PutFileResult(Writer& w, const FileResult& r) {
  w.Str(r.path);
  w.Str(r.root_path);
  w.Bool(r.context);
  w.U8(static_cast<std::uint8_t>(r.format));
  PutList(w, r.workloads);
  PutErrors(w, r.errors);
  PutErrors(w, r.notes);
  PutErrors(w, r.bounds);
  PutErrors(w, r.unread);
  PutStrings(w, r.workflow_deletes);
}

bool GetFileResult(Reader& in, FileResult* r) {
  r->path = in.Str();
  r->root_path = in.Str();
  r->context = in.Bool();
  r->format = static_cast<Format>(in.Enum(5));
  GetList(in, r->workloads, 64);
  GetErrors(in, r->errors);
  GetErrors(in, r->notes);
  GetErrors(in, r->bounds);
  GetErrors(in, r->unread);
  GetStrings(in, r->workflow_deletes);
  return in.ok();
}

}  // namespace sagelint::cache
