#include "linter/cost/price_update.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "linter/base/files.h"
#include "linter/base/process.h"
#include "linter/base/user_cache.h"
#include "linter/cost/offer_file.h"

namespace sagelint {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// A region code as AWS spells them: lower-case letters, digits and dashes.
bool ValidRegion(std::string_view region) {
  if (region.empty() || region.size() > 32) return false;
  for (char c : region) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// Days since 1970-01-01 of a civil date (the proleptic Gregorian calendar).
std::optional<long> DayNumber(std::string_view iso) {
  if (iso.size() < 10 || iso[4] != '-' || iso[7] != '-') return std::nullopt;
  auto num = [&](size_t at, size_t n) -> std::optional<int> {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (iso[i] < '0' || iso[i] > '9') return std::nullopt;
      v = v * 10 + (iso[i] - '0');
    }
    return v;
  };
  auto y = num(0, 4), m = num(5, 2), d = num(8, 2);
  if (!y || !m || !d || *m < 1 || *m > 12 || *d < 1 || *d > 31) return std::nullopt;
  std::chrono::year_month_day ymd{std::chrono::year(*y), std::chrono::month(static_cast<unsigned>(*m)),
                                  std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd).time_since_epoch().count();
}

}  // namespace

std::string PriceCacheDir() {
  std::string base = UserCacheDir();
  return base.empty() ? base : base + "/prices";
}

std::string CachedPricePath(std::string_view region) {
  std::string dir = PriceCacheDir();
  if (dir.empty() || !ValidRegion(region)) return {};
  return dir + "/" + std::string(region) + ".json";
}

std::string OfferFileUrl(std::string_view region) {
  std::string base = Env("SAGELINT_PRICE_LIST_URL");
  if (base.empty()) base = "https://pricing.us-east-1.amazonaws.com";
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/offers/v1.0/aws/AmazonSageMaker/current/" + std::string(region) + "/index.json";
}

std::vector<std::string> UpdateRegions() {
  std::vector<std::string> out;
  for (const std::string& r : PriceTable::BuiltInRegions()) {
    if (!r.starts_with("us-gov-")) out.push_back(r);
  }
  return out;
}

std::string TodayIso() {
  std::string fixed = Env("SAGELINT_TODAY");
  if (!fixed.empty()) return fixed;
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::optional<int> DaysBetween(std::string_view from, std::string_view to) {
  auto a = DayNumber(from), b = DayNumber(to);
  if (!a || !b) return std::nullopt;
  return static_cast<int>(*b - *a);
}

bool UpdatePrices(std::string_view region, std::uint64_t max_bytes, PriceUpdate* out, std::string* error) {
  out->region = std::string(region);
  out->url = OfferFileUrl(region);
  if (!ValidRegion(region)) {
    *error = "not a region code: " + std::string(region);
    return false;
  }
  out->path = CachedPricePath(region);
  if (out->path.empty()) {
    *error = "no cache directory: set XDG_CACHE_HOME or HOME";
    return false;
  }
  // curl applies the user's proxy and CA settings. It is never left to hang:
  // a connect timeout, a total time, and a minimum speed over a minute. Its
  // own --max-filesize is ignored when the length is not announced, so the
  // bytes are counted here and the transfer is cut off at the cap.
  std::vector<std::string> argv = {"curl",
                                   "--silent",
                                   "--show-error",
                                   "--fail",
                                   "--location",
                                   "--proto",
                                   "=http,https",
                                   "--connect-timeout",
                                   "30",
                                   "--max-time",
                                   "1800",
                                   "--speed-limit",
                                   "1024",
                                   "--speed-time",
                                   "60",
                                   "--max-filesize",
                                   std::to_string(max_bytes),
                                   "--",
                                   out->url};
  std::string body;
  bool capped = false;
  ProcessResult result;
  std::string why;
  bool started = RunProcess(
      argv, "",
      [&](std::string_view chunk) {
        if (body.size() + chunk.size() > max_bytes) {
          capped = true;
          return false;
        }
        body.append(chunk);
        return true;
      },
      &result, &why);
  if (!started) {
    *error = out->url + ": cannot run curl: " + why;
    return false;
  }
  if (capped) {
    *error = out->url + ": the response is larger than " + std::to_string(max_bytes >> 20) +
             " MiB; stopped reading (an offer file is far smaller)";
    return false;
  }
  if (result.exit_status != 0) {
    std::string msg = result.err;
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r')) msg.pop_back();
    if (msg.empty()) msg = "curl exited with status " + std::to_string(result.exit_status);
    *error = out->url + ": " + msg;
    return false;
  }
  OfferImport offer;
  if (!LooksLikeOfferFile(body)) {
    *error = out->url + ": not an AWS Price List offer file (" +
             (body.find("<html") != std::string::npos || body.find("<HTML") != std::string::npos ||
                      body.find("<!DOCTYPE") != std::string::npos
                  ? "an HTML page"
                  : std::to_string(body.size()) + " bytes of something else") +
             "); the cached table is unchanged";
    return false;
  }
  if (!ImportOffer(body, region, &offer, &why)) {
    *error = out->url + ": " + why + "; the cached table is unchanged";
    return false;
  }
  body.clear();
  body.shrink_to_fit();
  std::string table = CompactTable(offer, out->url);
  out->published = offer.published.substr(0, 10);
  out->prices = offer.prices.size();
  // A temporary file beside the table, renamed over it: a reader never sees half a table.
  std::error_code ec;
  std::filesystem::create_directories(PriceCacheDir(), ec);
  if (ec) {
    *error = PriceCacheDir() + ": cannot create: " + ec.message();
    return false;
  }
  std::string tmp = out->path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << table;
    f.close();
    if (!f) {
      std::filesystem::remove(tmp, ec);
      *error = tmp + ": cannot write";
      return false;
    }
  }
  std::filesystem::rename(tmp, out->path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    *error = out->path + ": cannot write: " + ec.message();
    return false;
  }
  return true;
}

std::optional<PriceTable> LoadCachedPrices(std::string_view region, std::string_view today, std::string* note,
                                           std::string* error) {
  std::string path = CachedPricePath(region);
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  auto table = PriceTable::Load(path, region, error);
  if (!table) {
    *error += "; run sagelint prices update --region " + std::string(region);
    return std::nullopt;
  }
  table->set_label("cached price table " + path);
  std::string now = today.empty() ? TodayIso() : std::string(today);
  auto age = DaysBetween(table->as_of(), now);
  if (age && *age > kStalePriceDays) {
    *note = "prices for " + std::string(region) + " are from " + table->as_of() +
            "; run sagelint prices update --region " + std::string(region);
  }
  return table;
}

}  // namespace sagelint
