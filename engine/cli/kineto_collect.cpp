// The Kineto trace read as it streams: zlib's gzread under a std::streambuf (it reads plain files as they are), and
// nlohmann's callback parser, which hands over each event of the traceEvents array as it closes; the event is gathered
// and then dropped, so only what the split needs is ever held. Gathering follows kineto.js's collector line by line.
#include "kineto_collect.hpp"

#include <cmath>
#include <cstdio>
#include <streambuf>

#ifdef PARASCOPE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace parascope::cli {

namespace {

using nlohmann::json;

/// A number field as a double; NaN when absent or not a number (JavaScript's undefined in arithmetic).
double number(const json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_number() ? it->get<double>() : std::nan("");
}

/// JavaScript's String(v) for a name: the string itself, else its JSON text.
std::string text(const json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) return "undefined";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

/// e.args?.<key>, or nullptr.
const json* arg(const json& e, const char* key) {
  const auto args = e.find("args");
  if (args == e.end() || !args->is_object()) return nullptr;
  const auto it = args->find(key);
  return it == args->end() ? nullptr : &*it;
}

}  // namespace

void Collector::add(const json& e) {
  if (!e.is_object() || e.value("ph", json()) != "X") return;
  const double ts = number(e, "ts");
  if (ts < c_.base) c_.base = ts;
  const std::string name = text(e, "name");
  const std::string cat = text(e, "cat");
  if (rules_.is_step_marker(name)) c_.markers.push_back({name, ts, number(e, "dur")});
  const json* corr = arg(e, "correlation");
  if (rules_.is_launch(cat) && corr) {
    c_.launches.emplace_back(corr->dump(), ts);
    c_.launched.insert(corr->dump());
  }
  const auto dur_it = e.find("dur");
  const double dur = dur_it != e.end() && dur_it->is_null() ? 0 : number(e, "dur");  // JS: null >= 0, as 0
  if (!(dur >= 0) || !rules_.is_gpu(cat)) return;
  KernelKind k;
  if (rules_.is_kernel(cat)) {  // kernels: each name classified once (copies are copies whatever their name)
    auto kind = kinds_.find(name);
    if (kind == kinds_.end()) kind = kinds_.emplace(name, rules_.classify(name, cat)).first;
    k = kind->second;
  } else {
    k = rules_.classify(name, cat);
  }
  const json* stream = arg(e, "stream");
  json where = stream && !stream->is_null() ? *stream : e.value("tid", json());
  c_.gpu.push_back({k.kind, k.collective, std::move(where), ts, dur,
                    corr ? std::optional<std::string>(corr->dump()) : std::nullopt});
}

}  // namespace parascope::cli

namespace parascope::cli {

namespace {

/// The file's bytes through zlib (gunzipped when gzip, as they are otherwise), for an std::istream.
class GzBuffer : public std::streambuf {
 public:
#ifdef PARASCOPE_HAVE_ZLIB
  explicit GzBuffer(const std::string& path) : file_(gzopen(path.c_str(), "rb")) {
    if (file_) gzbuffer(file_, 1 << 17);
  }
  ~GzBuffer() override {
    if (file_) gzclose(file_);
  }
  bool opened() const { return file_ != nullptr; }
  /// Whether zlib met a fault (a corrupt or truncated gzip stream), and its words.
  std::optional<std::string> fault() const {
    int code = Z_OK;
    const char* words = file_ ? gzerror(file_, &code) : "cannot open";
    return code == Z_OK || code == Z_STREAM_END ? std::nullopt : std::optional<std::string>(words);
  }

 protected:
  int_type underflow() override {
    const int got = gzread(file_, buffer_, sizeof buffer_);
    if (got <= 0) return traits_type::eof();
    setg(buffer_, buffer_, buffer_ + got);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  gzFile file_;
#else
  explicit GzBuffer(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {}
  ~GzBuffer() override {
    if (file_) std::fclose(file_);
  }
  bool opened() const { return file_ != nullptr; }
  std::optional<std::string> fault() const {
    if (file_ && std::ferror(file_)) return "a read error";
    return gzip_ ? std::optional<std::string>(
                       "this build of parascope reads plain JSON only (built without zlib): "
                       "gunzip the trace first")
                 : std::nullopt;
  }

 protected:
  int_type underflow() override {
    const std::size_t got = std::fread(buffer_, 1, sizeof buffer_, file_);
    if (got == 0) return traits_type::eof();
    if (first_ && got >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
        static_cast<unsigned char>(buffer_[1]) == 0x8b) {
      gzip_ = true;
      return traits_type::eof();
    }
    first_ = false;
    setg(buffer_, buffer_, buffer_ + got);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::FILE* file_;
  bool first_ = true;
  bool gzip_ = false;
#endif
  char buffer_[1 << 16];
};

/// The parser's callback: each event of the events array gathered and dropped; distributedInfo kept; `events` set
/// when the trace has an events list (a top-level array, or an array under traceEvents).
struct Events {
  Collector& collector;
  bool top_array = false;
  bool events = false;
  std::string key;  // the top-level key being read

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    if (depth == 0 && event == E::array_start) top_array = events = true;
    if (depth == 1 && event == E::key && !top_array) key = parsed.get<std::string>();
    if (depth == 1 && event == E::array_start && key == "traceEvents") events = true;
    const bool in_events = top_array ? depth == 1 : depth == 2 && key == "traceEvents";
    if (in_events && (event == E::object_end || event == E::value)) {
      collector.add(parsed);
      return false;  // dropped: the array never holds it
    }
    if (!top_array && depth == 1 && event == E::object_end && key == "distributedInfo") {
      collector.collected().distributed = parsed;
    }
    return true;
  }
};

}  // namespace

std::optional<ReadError> read_trace(const std::string& path, Collector& collector, bool& opened) {
  GzBuffer buffer(path);
  opened = buffer.opened();
  if (!opened) return ReadError{"unreadable", "cannot open " + path};
  std::istream in(&buffer);
  Events events{collector, false, false, {}};
  const json top = json::parse(in, std::ref(events), false);
  if (const auto fault = buffer.fault()) return ReadError{"unreadable", "the file could not be read: " + *fault};
  if (top.is_discarded()) return ReadError{"not_json", "the file is not JSON (nor gzipped JSON)"};
  if (!events.events) return ReadError{"no_events", "the JSON has no traceEvents list: not a PyTorch profiler trace"};
  return std::nullopt;
}

}  // namespace parascope::cli
