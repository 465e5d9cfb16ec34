// Warm scans (README "Large repositories"): the cache of parsed results gives
// what a parse gives, is used again only while everything the parse read is
// unchanged, never trusts a damaged or planted entry, and never changes a
// result.
#include "linter/engine/parse_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "linter/base/read_log.h"
#include "linter/base/sha256.h"
#include "linter/base/strings.h"
#include "linter/cache/codec.h"
#include "linter/cache/store.h"
#include "linter/engine/discover.h"
#include "linter/engine/front_ends.h"
#include "tests/catch.h"
#include "tests/field_count.h"
#include "tests/test_util.h"

using namespace sagelint;
using sagelint::testing::FieldCount;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;
using sagelint::testing::TempDir;
namespace fs = std::filesystem;

namespace {

Val Filled(const std::string& text, int line) {
  Val v = Val::Known(text, {{line, 3}, {line, 9}, 2, 1}, "parameter X default");
  v.condition = "condition C is true";
  v.literal = {{line, 4}, {line, 8}, 0, 0};
  v.literal_path = "other.tf";
  return v;
}

// A file result with every kind of field set to something other than its default.
FileResult FullResult() {
  FileResult r;
  r.path = "infra/main.tf";
  r.root_path = "infra/main.tf";
  r.context = true;
  r.format = Format::kNotebook;
  Workload w;
  w.kind = WorkloadKind::kHyperPodCluster;
  w.format = Format::kCdk;
  w.path = "infra/main.tf";
  w.scope = "infra";
  w.name = "aws_sagemaker_cluster.c";
  w.label = "HyperPod cluster 'c'";
  w.range = {{3, 1}, {20, 2}, 0, 0};
  w.condition = "UseGpu";
  w.member_of = {ConstructMember::Kind::kInstance, "aws_sagemaker_cluster.c", "\"a\"", 2};
  w.complete = false;
  w.suppressed = {"SM101", "SM102"};
  w.stand_in = true;
  w.module_caller = ModuleCaller{"main.tf", {{1, 1}, {4, 2}, 0, 0}, {{{5, 3}, "main.tf", {{2, 3}, {2, 30}, 0, 0}}}};
  int line = 10;
  for (Val* v : {&w.instance_type,
                 &w.instance_count,
                 &w.volume_gb,
                 &w.image,
                 &w.framework,
                 &w.spot,
                 &w.max_run_seconds,
                 &w.max_wait_seconds,
                 &w.checkpoint,
                 &w.output_path,
                 &w.keep_alive_seconds,
                 &w.input_mode,
                 &w.accelerator_type,
                 &w.serverless,
                 &w.async_inference,
                 &w.managed_scaling,
                 &w.endpoint_name,
                 &w.variant_name,
                 &w.copy_count,
                 &w.accelerators_required,
                 &w.memory_required_mb,
                 &w.cpu_cores_required,
                 &w.deleted,
                 &w.service_namespace,
                 &w.resource_id,
                 &w.scalable_dimension,
                 &w.min_capacity,
                 &w.max_capacity,
                 &w.lifecycle_config,
                 &w.on_start,
                 &w.on_create,
                 &w.autoscaling,
                 &w.idle_stop,
                 &w.idle_shutdown}) {
    *v = Filled("value " + std::to_string(line), line);
    ++line;
  }
  w.instance_type = Val::OneOf({Filled("ml.m5.large", 40), Filled("ml.p3.2xlarge", 41)}, {{40, 1}, {41, 9}, 0, 0});
  w.volume_gb = Val::Unknown({{50, 1}, {50, 2}, 0, 0}, "var.size");
  w.instance_groups = {{Filled("g", 60), Filled("ml.g5.xlarge", 61), Filled("4", 62), {{60, 1}, {63, 1}, 0, 0}}};
  w.channels = {{"train",
                 Filled("s3://b/p", 70),
                 Filled("Pipe", 71),
                 Filled("ShardedByS3Key", 72),
                 Filled("12", 73),
                 true,
                 {{70, 1}, {75, 1}, 0, 0},
                 Filled("ManifestFile", 74)}};
  w.delete_statement = "predictor_1.delete_endpoint()";
  w.delete_capture = "predictor_1 = predictor";
  w.delete_capture_at = {{64, 1}, {64, 30}, 3, 2};
  w.apps = {{"JupyterLab",
             "DefaultUserSettings",
             Filled("ml.t3.medium", 80),
             Filled("ENABLED", 81),
             Filled("60", 82),
             {{80, 1}, {83, 1}, 0, 0}}};
  w.iam.effect = Filled("Deny", 90);
  w.iam.actions = {Filled("sagemaker:CreateTrainingJob", 91)};
  w.iam.not_action = true;
  w.iam.actions_complete = false;
  w.iam.resources = {Filled("*", 92)};
  w.iam.not_resource = true;
  w.iam.conditions = {{"ForAllValues:StringLike", "sagemaker:InstanceTypes", {"ml.t3.*", "ml.m5.*"}, false}};
  w.iam.conditions_known = false;
  w.iam.policy = "Guard";
  w.iam.managed_policy = "AmazonSageMakerFullAccess";
  w.keys = {"ref:infra/main.tf#c"};
  w.refs = {"lc:x"};
  r.workloads.push_back(w);
  r.workloads.push_back(Workload{});
  r.errors = {{"unexpected token", {3, 4}, 2, 1}};
  r.notes = {{"a loop over an unknown collection", {5, 6}, 0, 0}};
  r.bounds = {{"evaluation budget", {7, 8}, 0, 0}};
  r.unread = {{"module loaded by a computed name", {9, 1}, 0, 0}};
  r.workflow_deletes = {"my-endpoint", "*"};
  return r;
}

std::string Encoded(const FileResult& r) {
  cache::Writer w;
  cache::PutFileResult(w, r);
  return w.Take();
}

// Runs sagelint with its cache under `cache_home` (XDG_CACHE_HOME).
sagelint::testing::CommandResult RunWithCache(const std::string& args, const std::string& cwd,
                                              const std::string& cache_home) {
  return RunSagelint(args, cwd, "XDG_CACHE_HOME='" + cache_home + "'");
}

// The output of a scan with the cache under `cache_home`, checked to be that of a scan without it.
std::string WarmAsCold(const std::string& args, const std::string& cwd, const std::string& cache_home) {
  auto warm = RunWithCache(args, cwd, cache_home);
  auto cold = RunWithCache(args + " --no-cache", cwd, cache_home);
  CHECK(warm.out == cold.out);
  CHECK(warm.err == cold.err);
  return warm.out;
}

// The entries in a cache directory (not its pruning marker or temporary files).
size_t Entries(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file() && !it->path().filename().string().starts_with(".")) ++n;
  }
  return n;
}

std::string Hits(const std::string& err) {
  size_t at = err.find("cache: ");
  return at == std::string::npos ? "" : err.substr(at, err.find('\n', at) - at);
}

}  // namespace

TEST_CASE("cache codec: every field of the model is carried", "[cache]") {
  // A field added to one of these structs must be written and read by
  // linter/cache/codec.cc (and set in FullResult above) before this passes.
  CHECK(FieldCount<Val>() == cache::kCodecValFields);
  CHECK(FieldCount<Workload>() == cache::kCodecWorkloadFields);
  CHECK(FieldCount<FileResult>() == cache::kCodecFileResultFields);
  CHECK(FieldCount<Channel>() == cache::kCodecChannelFields);
  CHECK(FieldCount<StudioApp>() == cache::kCodecStudioAppFields);
  CHECK(FieldCount<InstanceGroup>() == cache::kCodecInstanceGroupFields);
  CHECK(FieldCount<IamStatement>() == cache::kCodecIamStatementFields);
  CHECK(FieldCount<IamCondition>() == cache::kCodecIamConditionFields);
  CHECK(FieldCount<ModuleCaller>() == cache::kCodecModuleCallerFields);
  CHECK(FieldCount<ModuleCaller::Value>() == cache::kCodecModuleCallerValueFields);
  CHECK(FieldCount<ConstructMember>() == cache::kCodecConstructMemberFields);
  CHECK(FieldCount<ParseError>() == cache::kCodecParseErrorFields);
  CHECK(FieldCount<SourceRange>() == cache::kCodecSourceRangeFields);
  CHECK(FieldCount<Comment>() == kCacheCommentFields);
  // What a unit's key covers: a new option the front ends read must join the key.
  CHECK(FieldCount<ResolveOptions>() == kKeyResolveOptionsFields);
  CHECK(FieldCount<WorkUnit>() == kKeyWorkUnitFields);
  CHECK(FieldCount<DiscoveredFile>() == kKeyDiscoveredFileFields);

  FileResult full = FullResult();
  std::string bytes = Encoded(full);
  cache::Reader in(bytes);
  FileResult back;
  REQUIRE(cache::GetFileResult(in, &back));
  CHECK(in.done());
  CHECK(Encoded(back) == bytes);
  const Workload& w = back.workloads.at(0);
  CHECK(w.kind == WorkloadKind::kHyperPodCluster);
  CHECK(w.instance_type.alternatives.size() == 2);
  CHECK(w.instance_type.alternatives[1].text == "ml.p3.2xlarge");
  CHECK(w.instance_type.alternatives[1].literal_path == "other.tf");
  CHECK(w.volume_gb.unknown());
  CHECK(w.module_caller->values.at(0).src.end.column == 30);
  CHECK(w.channels.at(0).s3_data_type.text == "ManifestFile");
  CHECK(w.iam.conditions.at(0).values.at(1) == "ml.m5.*");
  CHECK(w.idle_shutdown.text == "value 43");
  CHECK(back.unread.at(0).message == "module loaded by a computed name");
  CHECK(back.workflow_deletes == full.workflow_deletes);
  // Each field of a workload counts: changing any one changes the bytes.
  for (Val Workload::*field : {&Workload::instance_count, &Workload::spot, &Workload::deleted, &Workload::on_create,
                               &Workload::idle_stop, &Workload::copy_count}) {
    FileResult changed = full;
    (changed.workloads[0].*field).text += "!";
    CHECK(Encoded(changed) != bytes);
  }
}

TEST_CASE("cache codec: truncated or damaged bytes are refused, never trusted", "[cache]") {
  std::string bytes = Encoded(FullResult());
  for (size_t n = 0; n < bytes.size(); n += 7) {
    cache::Reader in(std::string_view(bytes).substr(0, n));
    FileResult r;
    bool ok = cache::GetFileResult(in, &r);
    CHECK_FALSE((ok && in.done()));
  }
  // A huge count cannot make the reader allocate or loop: it is refused at once.
  cache::Writer w;
  w.Str("a");
  w.Str("b");
  w.Bool(false);
  w.U8(0);
  w.U32(0xffffffffu);  // workloads
  cache::Reader in(w.bytes());
  FileResult r;
  CHECK_FALSE(cache::GetFileResult(in, &r));
  CHECK(r.workloads.empty());
  // An enum out of range is refused.
  cache::Writer e;
  e.Str("a");
  e.Str("b");
  e.Bool(false);
  e.U8(9);  // no such format
  cache::Reader bad(e.bytes());
  CHECK_FALSE(cache::GetFileResult(bad, &r));
}

TEST_CASE("cache store: an entry comes back whole, and a corrupt, truncated or foreign one is a miss", "[cache]") {
  TempDir d;
  std::string why;
  auto store = cache::Store::Open(d.path() + "/c/scan", &why);
  REQUIRE(store);
  struct stat st;
  REQUIRE(::stat((d.path() + "/c/scan").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  cache::Key key{}, other{};
  key[0] = 0xab;
  other[0] = 0xcd;
  CHECK_FALSE(store->Load(key));
  store->Save(key, "the body");
  CHECK(store->Load(key) == std::optional<std::string>("the body"));
  std::string path = d.path() + "/c/scan/" + cache::EntryName(key);
  CHECK(cache::EntryName(key).substr(0, 3) == "ab/");
  std::string whole = ReadFileOrDie(path);
  auto write = [&](const std::string& bytes) { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; };
  write(whole.substr(0, whole.size() - 1));  // truncated
  CHECK_FALSE(store->Load(key));
  std::string flipped = whole;
  flipped.back() ^= 1;  // a byte of the body changed
  write(flipped);
  CHECK_FALSE(store->Load(key));
  write("{\"not\": \"an entry\"}\n");  // foreign
  CHECK_FALSE(store->Load(key));
  write("");
  CHECK_FALSE(store->Load(key));
  // Another key's entry copied to this name: its header names its own key.
  store->Save(other, "the body");
  write(ReadFileOrDie(d.path() + "/c/scan/" + cache::EntryName(other)));
  CHECK_FALSE(store->Load(key));
  // Written again, it is whole again; no temporary file is left behind.
  store->Save(key, "the body");
  CHECK(store->Load(key) == std::optional<std::string>("the body"));
  for (const auto& e : fs::recursive_directory_iterator(d.path() + "/c/scan")) {
    CHECK(e.path().filename().string().find("tmp") == std::string::npos);
  }
}

TEST_CASE("cache store: any one changed byte of an entry's body, wherever it lies, is a miss", "[cache]") {
  TempDir d;
  std::string why;
  std::unique_ptr<cache::Store> store = cache::Store::Open(d.path() + "/scan", &why);
  REQUIRE(store);
  const cache::Key key = {0x5a, 0x01};
  const std::string path = d.path() + "/scan/" + cache::EntryName(key);
  // Bodies of each length modulo the check's words and lanes: every byte of
  // each, changed in one bit and in all, and the body grown by a zero byte.
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{31}, size_t{32}, size_t{33}, size_t{77}}) {
    INFO(n);
    std::string body;
    for (size_t i = 0; i < n; ++i) body += static_cast<char>('a' + i % 26);
    store->Save(key, body);
    const std::string whole = ReadFileOrDie(path);
    REQUIRE(whole.size() >= n);
    const size_t at = whole.size() - n;  // where the body starts
    size_t missed = 0;
    for (size_t i = at; i < whole.size(); ++i) {
      for (char flip : {'\x01', '\x80', '\xff'}) {
        std::string bytes = whole;
        bytes[i] ^= flip;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
        if (store->Load(key)) ++missed;
      }
    }
    CHECK(missed == 0);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << whole << '\0';  // longer than its header says
    CHECK_FALSE(store->Load(key));
    std::ofstream(path, std::ios::binary | std::ios::trunc) << whole;
    CHECK(store->Load(key) == std::optional<std::string>(body));
  }
}

TEST_CASE("cache store: concurrent writers and readers never see a partial entry", "[cache]") {
  TempDir d;
  std::string why;
  auto store = cache::Store::Open(d.path() + "/scan", &why);
  REQUIRE(store);
  cache::Key key{};
  key[5] = 7;
  std::vector<std::string> bodies;
  for (int i = 0; i < 4; ++i) bodies.push_back(std::string(200000 + i * 1000, static_cast<char>('a' + i)));
  std::atomic<int> bad{0}, seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 30; ++i) store->Save(key, bodies[static_cast<size_t>(t)]);
    });
    threads.emplace_back([&] {
      for (int i = 0; i < 60; ++i) {
        std::optional<std::string> got = store->Load(key);
        if (!got) continue;
        ++seen;
        if (std::find(bodies.begin(), bodies.end(), *got) == bodies.end()) ++bad;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(bad == 0);
  CHECK(store->Load(key).has_value());
}

TEST_CASE("cache store: entries unused for 30 days, a killed scan's leftovers and the oldest beyond the cap go",
          "[cache]") {
  TempDir d;
  std::string why;
  const std::string dir = d.path() + "/scan";
  auto store = cache::Store::Open(dir, &why);
  REQUIRE(store);
  auto key = [](std::uint8_t a, std::uint8_t b) {
    cache::Key k{};
    k[0] = a;
    k[1] = b;
    return k;
  };
  auto path = [&](const cache::Key& k) { return dir + "/" + cache::EntryName(k); };
  auto age = [](const std::string& p, long days, long seconds = 0) {
    timespec t[2];
    t[0].tv_sec = t[1].tv_sec = ::time(nullptr) - days * 86'400 - seconds;
    t[0].tv_nsec = t[1].tv_nsec = 0;
    REQUIRE(::utimensat(AT_FDCWD, p.c_str(), t, 0) == 0);
  };
  const cache::Key fresh = key(1, 1), used = key(1, 2), stale = key(2, 1), older = key(3, 1);
  for (const cache::Key& k : {fresh, used, stale, older}) store->Save(k, std::string(1000, 'x'));
  age(path(used), 40);
  age(path(stale), 31);
  age(path(older), 29, 100);
  CHECK(store->Load(used));  // read: used again, so kept
  d.Write("scan/01/.tmp-999-1-0123456789abcdef", "half an entry");
  d.Write("scan/01/.tmp-999-2-0123456789abcdef", "a scan writing now");
  age(dir + "/01/.tmp-999-1-0123456789abcdef", 0, 7200);
  d.Write("scan/01/notes.txt", "not ours: left alone");
  CHECK(store->Prune(30, 1u << 20) == 2);
  CHECK_FALSE(fs::exists(path(stale)));
  CHECK_FALSE(fs::exists(dir + "/01/.tmp-999-1-0123456789abcdef"));
  CHECK(fs::exists(dir + "/01/.tmp-999-2-0123456789abcdef"));
  CHECK(fs::exists(dir + "/01/notes.txt"));
  for (const cache::Key& k : {fresh, used, older}) CHECK(fs::exists(path(k)));
  // Over the cap: the least recently used go first.
  CHECK(store->Prune(30, 2500) == 1);
  CHECK_FALSE(fs::exists(path(older)));
  CHECK(store->Load(fresh));
  CHECK(store->Load(used));
  // Once a day: the marker says when.
  store->PruneDaily();
  CHECK(fs::exists(dir + "/.pruned"));
  age(path(used), 45);
  store->PruneDaily();  // ran today already
  CHECK(fs::exists(path(used)));
  age(dir + "/.pruned", 2);
  store->PruneDaily();
  CHECK_FALSE(fs::exists(path(used)));
}

TEST_CASE("cache store: a directory others may write to, or another user owns, is not used", "[cache]") {
  TempDir d;
  std::string dir = d.path() + "/scan", why;
  REQUIRE(cache::Store::Open(dir, &why));
  ::chmod(dir.c_str(), 0777);
  CHECK_FALSE(cache::Store::Open(dir, &why));
  CHECK(why == "is writable by others");
  ::chmod(dir.c_str(), 0770);
  CHECK_FALSE(cache::Store::Open(dir, &why));
  CHECK(why == "is writable by others");
  ::chmod(dir.c_str(), 0700);
  CHECK(cache::Store::Open(dir, &why));
  if (::geteuid() == 0) {  // only root can give a directory to another user
    REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);
    CHECK_FALSE(cache::Store::Open(dir, &why));
    CHECK(why == "is owned by another user");
  }
  ::chmod(d.path().c_str(), 0500);
  if (::geteuid() != 0) {
    CHECK_FALSE(cache::Store::Open(d.path() + "/new/scan", &why));
    CHECK(why.starts_with("cannot be created ("));
  }
  ::chmod(d.path().c_str(), 0700);
}

TEST_CASE("read log: every question a parse asks is recorded and checked again", "[cache]") {
  TempDir d;
  d.Write("a.tf", "x = 1\n");
  d.Write("m/b.tf", "y = 2\n");
  RecordingFiles files(DiskFiles());
  ReadLog log;
  std::string text, error;
  {
    ReadLog::Scope scope(&log);
    CHECK(files.Read(d.path() + "/a.tf", 100, &text, &error));
    CHECK_FALSE(files.Read(d.path() + "/missing.tf", 100, &text, &error));
    CHECK(files.IsDirectory(d.path() + "/m"));
    std::vector<DirEntry> entries;
    CHECK(files.List(d.path() + "/m", &entries, &error));
    CHECK(files.Canonical(d.path() + "/m/b.tf"));
  }
  CHECK(files.Read(d.path() + "/m/b.tf", 100, &text, &error));  // no log current: not recorded
  std::vector<ReadRecord> records = log.Records();
  CHECK(records.size() == 5);
  CHECK(log.stable());
  CHECK(StillAnswered(DiskFiles(), records));
  d.Write("a.tf", "x = 2\n");  // a file read changed
  CHECK_FALSE(StillAnswered(DiskFiles(), records));
  d.Write("a.tf", "x = 1\n");
  CHECK(StillAnswered(DiskFiles(), records));
  d.Write("missing.tf", "");  // a file that was not there now is
  CHECK_FALSE(StillAnswered(DiskFiles(), records));
  fs::remove(d.path() + "/missing.tf");
  d.Write("m/c.tf", "");  // a directory listed gained an entry
  CHECK_FALSE(StillAnswered(DiskFiles(), records));

  // A file that changes between two reads of one parse leaves a log not worth keeping,
  // a large one (hashed at once) as a small one (held until the records are asked for).
  for (size_t size : {size_t{10}, size_t{3} << 20}) {
    ReadLog twice;
    ReadLog::Scope scope(&twice);
    d.Write("x.json", std::string(size, 'a'));
    CHECK(files.Read(d.path() + "/x.json", 8u << 20, &text, &error));
    CHECK(files.Read(d.path() + "/x.json", 8u << 20, &text, &error));
    CHECK(twice.stable());
    d.Write("x.json", std::string(size, 'b'));
    CHECK(files.Read(d.path() + "/x.json", 8u << 20, &text, &error));
    CHECK_FALSE(twice.stable());
  }
}

TEST_CASE("warm scans: the same output as a cold scan and as --no-cache", "[cache][cli]") {
  TempDir home;
  for (const char* dir : {"examples", "fixtures/rules", "fixtures/cdk", "fixtures/parsers"}) {
    INFO(dir);
    std::string args = std::string("scan --no-color --fail-on none --format json --report-name t ") + dir;
    size_t before = Entries(home.path() + "/sagelint/scan");
    auto none = RunWithCache(args + " --no-cache", SourcePath(""), home.path());
    CHECK(Entries(home.path() + "/sagelint/scan") == before);  // --no-cache writes nothing
    auto cold = RunWithCache(args + " --timing", SourcePath(""), home.path());
    auto warm = RunWithCache(args + " --timing", SourcePath(""), home.path());
    CHECK(cold.out == none.out);
    CHECK(warm.out == none.out);
    CHECK(cold.status == none.status);
    CHECK(warm.status == none.status);
    CHECK(Hits(cold.err).starts_with("cache: 0 hits"));
    CHECK(Hits(warm.err).find(" 0 stored") != std::string::npos);
    CHECK_FALSE(Hits(warm.err).starts_with("cache: 0 hits"));
    auto text_cold =
        RunWithCache("scan --no-color --fail-on none --no-cache " + std::string(dir), SourcePath(""), home.path());
    auto text_warm = RunWithCache("scan --no-color --fail-on none " + std::string(dir), SourcePath(""), home.path());
    CHECK(text_warm.out == text_cold.out);
  }
  CHECK(Entries(home.path() + "/sagelint/scan") > 20);
}

TEST_CASE("warm scans: a change to anything a file's evaluation read is seen", "[cache][cli]") {
  TempDir home, repo;
  repo.Write(".git/HEAD", "ref: refs/heads/main\n");
  // Terraform: a root module, its variable file and the module it calls.
  repo.Write("tf/main.tf",
             "variable \"nb_type\" {}\nmodule \"nb\" {\n  source        = \"./modules/nb\"\n  instance_type = "
             "var.nb_type\n}\n");
  repo.Write("tf/terraform.tfvars", "nb_type = \"ml.p3.2xlarge\"\n");
  repo.Write(
      "tf/modules/nb/main.tf",
      "variable \"instance_type\" {}\n\nresource \"aws_sagemaker_notebook_instance\" \"this\" {\n  name          "
      "= \"nb\"\n  role_arn      = \"arn:aws:iam::123456789012:role/x\"\n  instance_type = var.instance_type\n  "
      "volume_size   = 5\n}\n");
  // CloudFormation with a template configuration file named by the configuration.
  repo.Write("cfn/endpoint.yaml", ReadFileOrDie(SourcePath("fixtures/parsers/cloudformation/params/endpoint.yaml")));
  repo.Write("cfn/prod-config.json",
             ReadFileOrDie(SourcePath("fixtures/parsers/cloudformation/params/prod-config.json")));
  repo.Write(".sagelint.yaml", "parameter_files:\n  \"**/endpoint.yaml\": [prod-config.json]\n");
  // A CDK app in Python: its entry reads settings.json and imports its stack.
  for (const char* f : {"app.py", "cdk.json", "settings.json", "stacks/__init__.py", "stacks/notebook_stack.py"}) {
    repo.Write(std::string("cdk/") + f, ReadFileOrDie(SourcePath(std::string("fixtures/cdk/python/notebook/") + f)));
  }
  // A pytest test whose pipeline session is a fixture of its directory's conftest.py.
  repo.Write("py/conftest.py",
             "import pytest\nfrom sagemaker.workflow.pipeline_context import LocalPipelineSession\n\n\n"
             "@pytest.fixture\ndef session():\n    return LocalPipelineSession()\n");
  repo.Write("py/test_pipeline.py",
             "from sagemaker.workflow.function_step import step\nfrom sagemaker.workflow.pipeline import "
             "Pipeline\n\n\ndef test_run(session):\n    @step(instance_type=\"ml.c5.xlarge\")\n    def "
             "publish():\n        return 1\n\n    Pipeline(name=\"p\", steps=[publish()], "
             "sagemaker_session=session).start()\n");
  const std::string args = "scan --no-color --fail-on none --format json --report-name t .";
  auto scan = [&] { return WarmAsCold(args, repo.path(), home.path()); };
  std::string first = scan();
  CHECK(first.find("ml.p3.2xlarge") != std::string::npos);
  CHECK(first.find("ml.g5.xlarge") != std::string::npos);
  CHECK(scan() == first);

  SECTION("a variable file") {
    repo.Write("tf/terraform.tfvars", "nb_type = \"ml.g4dn.12xlarge\"\n");
    std::string after = scan();
    CHECK(after != first);
    CHECK(after.find("ml.g4dn.12xlarge") != std::string::npos);
  }
  SECTION("a called module") {
    repo.Write("tf/modules/nb/main.tf",
               "variable \"instance_type\" {}\n\nresource \"aws_sagemaker_notebook_instance\" \"this\" {\n  name     "
               "     = \"nb\"\n  role_arn      = \"arn:aws:iam::123456789012:role/x\"\n  instance_type = "
               "\"ml.p4d.24xlarge\"\n}\n");
    std::string after = scan();
    CHECK(after.find("ml.p4d.24xlarge") != std::string::npos);
  }
  SECTION("an auto-loaded variable file that appears") {
    repo.Write("tf/gpu.auto.tfvars", "nb_type = \"ml.g5.48xlarge\"\n");
    CHECK(scan().find("ml.g5.48xlarge") != std::string::npos);
  }
  SECTION("a parameter file") {
    std::string config = ReadFileOrDie(repo.path() + "/cfn/prod-config.json");
    config.replace(config.find("ml.g5.xlarge"), 12, "ml.g5.2xlarge");
    repo.Write("cfn/prod-config.json", config);
    std::string after = scan();
    CHECK(after.find("ml.g5.2xlarge") != std::string::npos);
  }
  SECTION("what a CDK app reads: a JSON file, an imported module, cdk.json's context") {
    repo.Write("cdk/settings.json", "{\"notebook_instance_type\": \"ml.c5.large\"}\n");
    std::string after = scan();
    CHECK(after.find("ml.c5.large") != std::string::npos);
    std::string stack = ReadFileOrDie(repo.path() + "/cdk/stacks/notebook_stack.py");
    stack.replace(stack.find("\"ExploreNotebook\""), 17, "\"LabNotebook\"");
    repo.Write("cdk/stacks/notebook_stack.py", stack);
    CHECK(scan().find("LabNotebook") != std::string::npos);
    std::string cdk = ReadFileOrDie(repo.path() + "/cdk/cdk.json");
    cdk.replace(cdk.find("\"research\""), 10, "\"vision\"");
    repo.Write("cdk/cdk.json", cdk);
    CHECK(scan().find("vision-lifecycle") != std::string::npos);
  }
  SECTION("a conftest.py whose fixture a test takes") {
    CHECK(first.find("'publish'") == std::string::npos);  // a local pipeline: no job
    std::string conftest = ReadFileOrDie(repo.path() + "/py/conftest.py");
    conftest.replace(conftest.find("return LocalPipelineSession()"), 29, "return None");
    repo.Write("py/conftest.py", conftest);
    CHECK(scan().find("'publish'") != std::string::npos);
  }
  SECTION("a command-line value and the price table") {
    auto warm = RunWithCache(args + " --var nb_type=ml.m5.4xlarge --region eu-west-1", repo.path(), home.path());
    auto cold =
        RunWithCache(args + " --var nb_type=ml.m5.4xlarge --region eu-west-1 --no-cache", repo.path(), home.path());
    CHECK(warm.out == cold.out);
    CHECK(warm.out.find("ml.m5.4xlarge") != std::string::npos);
    CHECK(warm.out.find("eu-west-1") != std::string::npos);
  }
}

TEST_CASE("stat stamps: a record stands for a file's content only while settled and unchanged", "[cache]") {
  constexpr std::int64_t kSecond = 1'000'000'000;
  const std::int64_t now = 1'800'000'000 * kSecond + 123'456'789;
  auto at = [&](std::int64_t mtime, std::int64_t ctime) {
    StampedAt s;
    s.stamp = FileStamp{1, 2, 3, mtime, ctime};
    s.taken_ns = now;
    return s;
  };
  // Racy: changed within the margin before the record was taken (or after it).
  CHECK_FALSE(Settled(at(now - kSecond / 100, now - 5 * kSecond)));
  CHECK_FALSE(Settled(at(now - 5 * kSecond, now - kSecond / 100)));
  CHECK_FALSE(Settled(at(now + kSecond, now + kSecond)));
  CHECK(Settled(at(now - kSecond / 2, now - kSecond / 2)));
  // Whole-second times (a file system of coarse timestamps): a wider margin.
  CHECK_FALSE(Settled(at(1'799'999'998 * kSecond, 1'799'999'998 * kSecond)));
  CHECK(Settled(at(1'799'999'990 * kSecond, 1'799'999'990 * kSecond)));

  KnownContents known;
  known.Put("/a", at(now - kSecond / 100, now - kSecond / 100), 100, "1hash");  // racy: not kept
  CHECK_FALSE(known.Answer("/a", 100, at(now - kSecond / 100, now - kSecond / 100).stamp));
  StampedAt old = at(now - 10 * kSecond, now - 10 * kSecond);
  known.Put("/a", old, 100, "1hash");
  CHECK(known.Answer("/a", 100, old.stamp) == std::optional<std::string>("1hash"));
  CHECK_FALSE(known.Answer("/a", 200, old.stamp));  // another size cap: another question
  for (auto change : {+[](FileStamp& s) { ++s.dev; }, +[](FileStamp& s) { ++s.ino; }, +[](FileStamp& s) { ++s.size; },
                      +[](FileStamp& s) { ++s.mtime_ns; }, +[](FileStamp& s) { ++s.ctime_ns; }}) {
    FileStamp s = old.stamp;
    change(s);
    CHECK_FALSE(known.Answer("/a", 100, s));
  }

  // On disk: a new file is read again until its record settles; then its stamp answers.
  TempDir d;
  d.Write("f.py", "import sagemaker\n");
  const std::string f = d.path() + "/f.py";
  const std::string hash = AnswerOf(DiskFiles(), ReadRecord::Op::kRead, f, 100);
  KnownContents disk;
  CHECK(disk.AnswerNow(DiskFiles(), f, 100) == hash);
  CHECK(disk.reread() == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK(disk.AnswerNow(DiskFiles(), f, 100) == hash);  // read again, now settled: kept
  CHECK(disk.AnswerNow(DiskFiles(), f, 100) == hash);
  CHECK(disk.reread() == 2);
  CHECK(disk.trusted() == 1);
  // The same size and a restored modification time: the change time tells.
  struct stat before;
  REQUIRE(::stat(f.c_str(), &before) == 0);
  d.Write("f.py", "import sagemakeR\n");
  timespec times[2] = {before.st_atim, before.st_mtim};
  REQUIRE(::utimensat(AT_FDCWD, f.c_str(), times, 0) == 0);
  CHECK(disk.AnswerNow(DiskFiles(), f, 100) == AnswerOf(DiskFiles(), ReadRecord::Op::kRead, f, 100));
  CHECK(disk.AnswerNow(DiskFiles(), f, 100) != hash);
  CHECK(disk.trusted() == 1);
}

TEST_CASE("warm scans: a file's stamp decides whether it is read again, and every change is seen", "[cache][cli]") {
  TempDir home, repo;
  // A notebook instance (a finding), a file that does not mention SageMaker, a module directory.
  const std::string nb =
      "import sagemaker\n\ns = sagemaker.Session()\nsagemaker.estimator.Estimator(image_uri='x', "
      "role='r', instance_count=1, instance_type='ml.p3.2xlarge').fit()\n";
  repo.Write("train.py", nb);
  repo.Write("util.py", "def helper():\n    return 42\n");
  repo.Write("jobs/old.py", "print('nothing to see')\n");
  const std::string args = "scan --no-color --fail-on none --format json --report-name t --timing .";
  auto scan = [&] {
    auto warm = RunWithCache(args, repo.path(), home.path());
    auto cold = RunWithCache(args + " --no-cache", repo.path(), home.path());
    CHECK(warm.out == cold.out);
    CHECK(warm.status == cold.status);
    return warm;
  };
  auto count = [](const std::string& err, const std::string& what) {
    size_t at = err.find(what);
    if (at == std::string::npos) return -1;
    size_t start = err.rfind(' ', at - 2);
    return std::stoi(err.substr(start + 1, at - start - 1));
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the files' records settle
  auto first = scan();
  CHECK(first.out.find("ml.p3.2xlarge") != std::string::npos);
  auto warm = scan();
  INFO(Hits(warm.err));
  CHECK(count(warm.err, " files unchanged by stat") >= 3);  // not read at all
  CHECK(count(warm.err, " read again") == 0);
  CHECK(count(warm.err, " known to give nothing") == 2);

  SECTION("the same size and a restored modification time (touch -d)") {
    const std::string path = repo.path() + "/train.py";
    struct stat before;
    REQUIRE(::stat(path.c_str(), &before) == 0);
    std::string changed = nb;
    changed.replace(changed.find("ml.p3.2xlarge"), 13, "ml.p3.8xlarge");
    repo.Write("train.py", changed);
    timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
    auto after = scan();
    CHECK(after.out.find("ml.p3.8xlarge") != std::string::npos);
    CHECK(count(after.err, " read again") >= 1);
  }
  SECTION("a racy file: changed within its record's timestamp") {
    // A modification time not older than the record (here: ahead of the clock) leaves it unsettled.
    const std::string path = repo.path() + "/util.py";
    timespec ahead[2] = {{0, UTIME_OMIT}, {::time(nullptr) + 3600, 0}};
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), ahead, 0) == 0);
    scan();
    CHECK(count(scan().err, " read again") == 1);  // each scan reads it
    repo.Write("util.py", "import sagemaker # 42\n");
    REQUIRE(::utimensat(AT_FDCWD, path.c_str(), ahead, 0) == 0);
    CHECK(scan().out == first.out);  // still nothing to report, but read
    CHECK(count(scan().err, " read again") == 1);
  }
  SECTION("a file replaced by another inode of the same size and times") {
    const std::string path = repo.path() + "/util.py";
    struct stat before;
    REQUIRE(::stat(path.c_str(), &before) == 0);
    std::string other = nb.substr(0, static_cast<size_t>(before.st_size));
    REQUIRE(other.size() == static_cast<size_t>(before.st_size));
    repo.Write("util.py.new", other);
    const std::string fresh = repo.path() + "/util.py.new";
    timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, fresh.c_str(), times, 0) == 0);
    REQUIRE(::rename(fresh.c_str(), path.c_str()) == 0);
    auto after = scan();
    CHECK(count(after.err, " read again") >= 1);
    CHECK(count(after.err, " known to give nothing") == 1);
  }
  SECTION("a directory gaining a file") {
    repo.Write("jobs/new.py", nb);
    auto after = scan();
    CHECK(after.out.find("jobs/new.py") != std::string::npos);
  }
}

TEST_CASE("warm scans: corrupt entries are ignored and rewritten", "[cache][cli]") {
  TempDir home;
  const std::string args = "scan --no-color --fail-on none --format json --report-name t --timing examples";
  auto cold = RunWithCache(args, SourcePath(""), home.path());
  size_t n = Entries(home.path() + "/sagelint/scan");
  REQUIRE(n > 0);
  size_t i = 0;
  for (const auto& e : fs::recursive_directory_iterator(home.path() + "/sagelint/scan")) {
    if (!e.is_regular_file() || e.path().filename().string().starts_with(".")) continue;
    std::string bytes = ReadFileOrDie(e.path().string());
    // Truncated, garbage, a flipped byte, empty: each a miss.
    switch (i++ % 4) {
      case 0:
        bytes.resize(bytes.size() / 2);
        break;
      case 1:
        bytes = "garbage";
        break;
      case 2:
        bytes[bytes.size() / 2] ^= 0x20;
        break;
      default:
        bytes.clear();
    }
    std::ofstream(e.path(), std::ios::binary | std::ios::trunc) << bytes;
  }
  auto again = RunWithCache(args, SourcePath(""), home.path());
  CHECK(again.out == cold.out);
  CHECK(Hits(again.err).starts_with("cache: 0 hits"));
  auto warm = RunWithCache(args, SourcePath(""), home.path());
  CHECK(warm.out == cold.out);
  // Every entry a unit's or a fix group's, but the record of known contents (its body names its format).
  size_t records = 0;
  for (const auto& e : fs::recursive_directory_iterator(home.path() + "/sagelint/scan")) {
    bool entry = e.is_regular_file() && !e.path().filename().string().starts_with(".");
    if (entry && ReadFileOrDie(e.path().string()).find("sagelint known contents 2") != std::string::npos) ++records;
  }
  CHECK(records == 1);
  CHECK(Hits(warm.err).starts_with("cache: " + std::to_string(n - records) + " hits"));
}

TEST_CASE("warm scans: an unsafe cache directory is not used, and said once", "[cache][cli]") {
  TempDir home, shared;
  std::string dir = shared.path() + "/cache";
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0777);
  auto r =
      RunWithCache("scan --no-color --fail-on none --cache-dir '" + dir + "' examples", SourcePath(""), home.path());
  auto plain = RunWithCache("scan --no-color --fail-on none --no-cache examples", SourcePath(""), home.path());
  CHECK(r.out == plain.out);
  CHECK(r.err == "sagelint: note: cache directory " + dir + " is writable by others; not used\n");
  CHECK(Entries(dir) == 0);
  // Private again, it is used.
  ::chmod(dir.c_str(), 0700);
  auto ok =
      RunWithCache("scan --no-color --fail-on none --cache-dir '" + dir + "' examples", SourcePath(""), home.path());
  CHECK(ok.out == plain.out);
  CHECK(ok.err.empty());
  CHECK(Entries(dir) > 0);
  CHECK_FALSE(fs::exists(home.path() + "/sagelint"));  // --cache-dir: the default place is not touched
}

TEST_CASE("warm scans: scans running at once on one cache give the same reports", "[cache][cli]") {
  TempDir home, out;
  std::string scan = "XDG_CACHE_HOME='" + home.path() + "' '" + sagelint::testing::Binary() +
                     "' scan --fail-on none --report-name t --format json fixtures/rules";
  std::string cmd = "cd '" + SourcePath("") + "' && (";
  for (int i = 0; i < 4; ++i) cmd += scan + " > '" + out.path() + "/" + std::to_string(i) + ".json' & ";
  cmd += "wait)";
  sagelint::testing::ShellOut(cmd);
  auto none = RunWithCache("scan --fail-on none --report-name t --format json --no-cache fixtures/rules",
                           SourcePath(""), home.path());
  for (int i = 0; i < 4; ++i) CHECK(ReadFileOrDie(out.path() + "/" + std::to_string(i) + ".json") == none.out);
  // And once more, now that they all wrote: every entry whole.
  auto warm = RunWithCache("scan --fail-on none --report-name t --format json --timing fixtures/rules", SourcePath(""),
                           home.path());
  CHECK(warm.out == none.out);
  CHECK(Hits(warm.err).find(" 0 stored") != std::string::npos);
}

TEST_CASE("warm scans: usage errors", "[cache][cli]") {
  auto r = RunSagelint("scan --no-cache --cache-dir /tmp/x examples", SourcePath(""));
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --no-cache and --cache-dir do not go together\n");
  r = RunSagelint("rules --no-cache", SourcePath(""));
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --no-cache is an option of scan, inventory, iam-policy and diff\n");
  r = RunSagelint("scan --cache-dir= examples", SourcePath(""));
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --cache-dir needs a directory\n");
}

TEST_CASE("warm scans: the tests never use the user's cache", "[cache]") {
  const char* home = std::getenv("XDG_CACHE_HOME");
  REQUIRE(home);
  CHECK(std::string(home) == sagelint::testing::TestCacheHome());
  CHECK(std::string(home).find("sagelint-test-cache-") != std::string::npos);
}

TEST_CASE("SHA-256: the processor's SHA instructions and the portable code agree", "[cache]") {
  std::string data;
  std::uint32_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 1103515245u + 12345u;
    data += static_cast<char>(x >> 16);
  }
  std::vector<std::string> portable, fast;
  for (bool use_portable : {true, false}) {
    Sha256UsePortable(use_portable);
    auto& out = use_portable ? portable : fast;
    for (size_t n : {0, 1, 55, 56, 63, 64, 65, 127, 128, 1000, 4096, 5000}) out.push_back(Sha256Hex(data.substr(0, n)));
    // Fed in pieces: whole blocks straight from the input, the rest through the buffer.
    Sha256 h;
    for (size_t at = 0; at < data.size(); at += 97) h.Update(std::string_view(data).substr(at, 97));
    std::array<std::uint8_t, 32> d = h.Finish();
    out.emplace_back(d.begin(), d.end());
  }
  Sha256UsePortable(false);
  CHECK(portable == fast);
  CHECK(portable[0] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Sha256Hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("cache keys: the part every unit of a scan shares, hashed once, gives each unit its own key", "[cache]") {
  ResolveOptions opts;
  opts.tf_variables = {{"size", "2"}};
  opts.root = "/repo";
  auto file = [](const std::string& dir, const std::string& name, const std::string& display_dir,
                 const std::string& root_dir) {
    DiscoveredFile f;
    f.dir = std::make_shared<const DirPaths>(DirPaths{dir, display_dir, root_dir, "/repo"});
    f.name = name;
    f.front_end = FrontEndForPath(name);
    return f;
  };
  WorkUnit a;
  a.files = {file("/repo/infra/", "main.py", "infra/", "infra/")};
  ParseCache::Keys keys(opts);
  // The same key as one computed alone.
  CHECK(keys.Of(a) == ParseCache::KeyOf(a, opts));
  std::set<cache::Key> seen{keys.Of(a)};
  // Another path of any kind, another front end, named or not, another plan: another key.
  auto differs = [&](const WorkUnit& u) {
    CHECK(keys.Of(u) == ParseCache::KeyOf(u, opts));
    CHECK(seen.insert(keys.Of(u)).second);
  };
  WorkUnit b = a;
  b.files = {file("/repo/infra/", "other.py", "infra/", "infra/")};
  differs(b);
  b.files = {file("/repo/infrx/", "main.py", "infra/", "infra/")};
  differs(b);
  b.files = {file("/repo/infra/", "main.py", "infrb/", "infra/")};
  differs(b);
  b.files = {file("/repo/infra/", "main.py", "infra/", "infrc/")};
  differs(b);
  // The boundary between a directory and a name is no part of the path: the same path, the same key.
  WorkUnit whole = a;
  whole.files[0].dir =
      std::make_shared<const DirPaths>(DirPaths{"/repo/infra/main.py", "infra/main.py", "infra/main.py", "/repo"});
  whole.files[0].name.clear();
  CHECK(keys.Of(whole) == keys.Of(a));
  b = a;
  b.files[0].named = true;
  differs(b);
  b = a;
  b.files[0].front_end = FrontEndForPath("main.ipynb");
  differs(b);
  b = a;
  b.terraform_module = true;
  differs(b);
  b = a;
  b.named = {"infra/main.py"};
  differs(b);
  // Options the units share: keys made with others differ for the same unit.
  ResolveOptions other = opts;
  other.tf_variables["size"] = "3";
  CHECK(ParseCache::Keys(other).Of(a) != keys.Of(a));
  std::string cwd = "/elsewhere";
  CHECK(ParseCache::Keys(opts, &cwd).Of(a) != keys.Of(a));
}

TEST_CASE("discovery: a .gitignore pattern of a star and a name's ending matches as the glob does",
          "[cache][discover]") {
  TempDir dir;
  const std::string notebook =
      "Resources:\n  Nb:\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: "
      "ml.t3.medium\n";
  dir.Write(".gitignore", "*.gen.yaml\n!*.keep.gen.yaml\n*_out\n");
  for (const char* name : {"a.yaml", "a.gen.yaml", ".gen.yaml", "gen.yaml", "a.keep.gen.yaml", "a.gen.yaml.yaml",
                           "build_out/b.yaml", "build_outs/b.yaml"}) {
    dir.Write(name, notebook);
  }
  DiscoverResult r = Discover({dir.path()}, DiscoverOptions{});
  std::vector<std::string> found;
  for (const DiscoveredFile& f : r.files) found.push_back(f.root_path());
  CHECK(found ==
        std::vector<std::string>{"a.gen.yaml.yaml", "a.keep.gen.yaml", "a.yaml", "build_outs/b.yaml", "gen.yaml"});
}

TEST_CASE("planning: a Terraform file named through a linked directory is one module with its target's files",
          "[discover][terraform]") {
  TempDir repo;
  repo.Write(".git/HEAD", "ref: refs/heads/main\n");
  repo.Write("modules/real/main.tf",
             "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  name          = \"nb\"\n  role_arn      = "
             "\"arn:aws:iam::123456789012:role/r\"\n  instance_type = var.type\n}\n");
  repo.Write("modules/real/vars.tf", "variable \"type\" {\n  default = \"ml.p3.2xlarge\"\n}\n");
  fs::create_directory_symlink("modules/real", fs::path(repo.path()) / "linked");
  // The link's directory resolves to its target: the variable file's default reaches the resource.
  auto r = RunSagelint("scan --no-color --fail-on none linked/main.tf modules/real/vars.tf", repo.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("linked/main.tf:4:19: warning[SM103] notebook instance 'aws_sagemaker_notebook_instance.nb' uses "
                   "ml.p3.2xlarge for interactive work") != std::string::npos);
  CHECK(r.out.find("2 findings (0 errors, 2 warnings, 0 notes) in 2 files") != std::string::npos);
}

TEST_CASE("planner facts: kept by a file's content, not read again while its stamp is unchanged", "[cache]") {
  TempDir d, repo;
  const std::string calls = "module \"a\" {\n  source = \"./modules/a\"\n}\n";
  repo.Write("main.tf", calls);
  repo.Write("vars.tfvars", calls);                             // the same text: a variable file calls no module
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the files' records settle
  std::string why;
  auto open = [&] {
    auto store = cache::Store::Open(d.path() + "/scan", &why);
    REQUIRE(store);
    return std::make_unique<ParseCache>(std::move(store));
  };
  auto describe = [&](const std::string& name) {
    return DescribeFile(repo.path() + "/" + name, repo.path(), false, nullptr, DiskFiles());
  };
  const TerraformFileFacts module{false, {"./modules/a"}};
  {
    auto cache = open();
    CHECK(cache->PlannerFacts(describe("main.tf")) == module);
    CHECK(cache->PlannerFacts(describe("vars.tfvars")) == TerraformFileFacts{false, {}});
    CHECK(cache->PlannerFacts(describe("gone.tf")) == std::nullopt);
    CHECK(cache->known().reread() == 3);
    cache->Persist();
  }
  {
    // The next scan: from the record, the file not read.
    auto cache = open();
    CHECK(cache->PlannerFacts(describe("main.tf")) == module);
    CHECK(cache->PlannerFacts(describe("vars.tfvars")) == TerraformFileFacts{false, {}});
    CHECK(cache->known().trusted() == 2);
    CHECK(cache->known().reread() == 0);
  }
  // A changed file is read again: its new facts, whatever the old record says.
  repo.Write("main.tf", "module \"b\" {\n  source = \"../b\"\n}\n# aws_sagemaker_model\n");
  auto cache = open();
  CHECK(cache->PlannerFacts(describe("main.tf")) == TerraformFileFacts{true, {"../b"}});
  CHECK(cache->known().reread() == 1);
}

TEST_CASE("warm scans: the Terraform planner sees a changed file and a changed module source", "[cache][cli]") {
  TempDir home, repo;
  repo.Write(".git/HEAD", "ref: refs/heads/main\n");
  // Two modules of a notebook whose type the caller gives; the caller names one of them.
  const std::string module =
      "variable \"type\" {}\n\nresource \"aws_sagemaker_notebook_instance\" \"this\" {\n  name          = \"nb\"\n  "
      "role_arn      = \"arn:aws:iam::123456789012:role/x\"\n  instance_type = var.type\n}\n";
  auto calling = [](const std::string& source) {
    return "module \"m\" {\n  source = \"" + source + "\"\n  type   = \"ml.p3.8xlarge\"\n}\n";
  };
  repo.Write("live/main.tf", calling("../modules/a"));
  repo.Write("modules/a/main.tf", module);
  repo.Write("modules/b/main.tf", module);
  repo.Write("other/main.tf", "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"b\"\n}\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the files' records settle
  const std::string args = "scan --no-color --fail-on none --format json --report-name t .";
  auto scan = [&] { return WarmAsCold(args, repo.path(), home.path()); };
  const std::string in_a = "\"path\": \"modules/a/main.tf\",\n      \"line\": 6";
  const std::string in_b = "\"path\": \"modules/b/main.tf\",\n      \"line\": 6";
  std::string first = scan();
  CHECK(first.find("ml.p3.8xlarge") != std::string::npos);
  CHECK(first.find(in_a) != std::string::npos);
  CHECK(first.find(in_b) == std::string::npos);
  CHECK(scan() == first);

  SECTION("a module source changed: the other module is evaluated from the caller") {
    repo.Write("live/main.tf", calling("../modules/b"));
    std::string after = scan();
    CHECK(after.find(in_b) != std::string::npos);
    CHECK(after.find(in_a) == std::string::npos);
  }
  SECTION("a file that starts to mention SageMaker: its module is planned") {
    repo.Write("other/main.tf",
               "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  name          = \"nb\"\n  role_arn      = "
               "\"arn:aws:iam::123456789012:role/x\"\n  instance_type = \"ml.p4d.24xlarge\"\n}\n");
    CHECK(scan().find("ml.p4d.24xlarge") != std::string::npos);
  }
  SECTION("a called module that no longer mentions SageMaker") {
    repo.Write("modules/a/main.tf", "variable \"type\" {}\n");
    CHECK(scan().find("ml.p3.8xlarge") == std::string::npos);
  }
}

TEST_CASE("discovery: a .gitignore glob is tried only where its text before and after the wildcards allows a match",
          "[cache][discover]") {
  const std::vector<std::string> files = {
      "foo.yaml",   "x/foo.yaml",   "a/b.yaml",      "a/c/d.yaml",     "lib/a.yaml", "Lib/a.yaml",
      "lob/a.yaml", "scratch.yaml", "scratch1.yaml", "myscratch.yaml", "x.gen.yaml", "crash.1.yaml",
      "crash.yaml", "d/e.yaml",     "dx/e.yaml",     "x/d/e.yaml",     "xa.yaml",    "ab/c/x.yaml"};
  // What git does without negations: a file is ignored when the pattern
  // matches its name or a directory above it (by name, or anchored by path).
  auto ignored = [](const std::string& glob, const std::string& file) {
    bool anchored = glob.find('/') != std::string::npos;
    for (size_t end = file.find('/');; end = file.find('/', end + 1)) {
      std::string upto = file.substr(0, end);
      std::string name = upto.substr(upto.rfind('/') == std::string::npos ? 0 : upto.rfind('/') + 1);
      if (GlobMatch(glob, anchored ? upto : name)) return true;
      if (end == std::string::npos) return false;
    }
  };
  for (const std::string glob : {"**/foo.yaml", "a/**", "[Ll]ib", "scratch*.yaml", "*.gen.y?ml", "a//c", "**.yaml",
                                 "crash.*.yaml", "d*/e.yaml", "[!x]*.yaml", "*b/c", "x/**/e.yaml", "?a.yaml"}) {
    INFO(glob);
    TempDir dir;
    dir.Write(".gitignore", glob + "\n");
    std::vector<std::string> expected;
    for (const std::string& f : files) {
      dir.Write(f, "Resources: {}\n");
      if (!ignored(glob, f)) expected.push_back(f);
    }
    std::sort(expected.begin(), expected.end());
    DiscoverResult r = Discover({dir.path()}, DiscoverOptions{});
    std::vector<std::string> found;
    for (const DiscoveredFile& f : r.files) found.push_back(f.root_path());
    std::sort(found.begin(), found.end());
    CHECK(found == expected);
  }
}
