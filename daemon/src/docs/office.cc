// Office Open XML: a zip of XML parts tied together by relationship parts
// (_rels/*.rels). The zip is read from memory with libzip, each part inflated
// in chunks while counting bytes against the limits (declared sizes lie in zip
// bombs), and parsed by pugixml, which does not expand custom entities (no
// billion laughs). Trees are walked iteratively and rejected past
// limits.max_xml_depth, so a deep document costs neither stack nor time.
#include "docs/office.h"

#include <zip.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace comp::docs {

Document extract_docx(std::string_view bytes, const Limits& limits);
Document extract_pptx(std::string_view bytes, const Limits& limits);
Document extract_xlsx(std::string_view bytes, const Limits& limits);

namespace {

// A member is allowed to inflate past limits.max_ratio up to this size: small
// XML parts of repeated markup legitimately compress very well.
constexpr std::uint64_t kRatioGrace = 1u << 20;
// pugixml spends ~64 bytes per element or attribute; past this many in one
// part, a part of `<a/>` would cost gigabytes.
constexpr std::size_t kMaxXmlNodes = 8u << 20;
// errors kept per document; the rest are counted.
constexpr std::size_t kMaxErrors = 64;
// Headings that start sections in one docx; later ones are text.
constexpr std::size_t kMaxSections = 100000;
// Excel's last column (XFD).
constexpr long kMaxColumns = 16384;

// ---------------------------------------------------------------- text

std::string_view local_name(const char* name) {
  std::string_view view(name);
  std::size_t colon = view.rfind(':');
  return colon == std::string_view::npos ? view : view.substr(colon + 1);
}

bool is(pugi::xml_node node, std::string_view local) {
  return node.type() == pugi::node_element && local_name(node.name()) == local;
}

// The first child element with that local name (any prefix).
pugi::xml_node child(pugi::xml_node node, std::string_view local) {
  for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
    if (is(c, local)) return c;
  }
  return {};
}

// An attribute by local name; `prefixed` requires a prefix (r:id, not id).
std::string_view attribute(pugi::xml_node node, std::string_view local, bool prefixed = false) {
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute()) {
    std::string_view name(a.name());
    bool has_prefix = name.find(':') != std::string_view::npos;
    if (local_name(a.name()) == local && (!prefixed || has_prefix)) return a.value();
  }
  return {};
}

// Visits the descendants of `root` in document order without recursion;
// `visit(node)` returns whether to go into the node's children.
template <typename Visit>
void walk(pugi::xml_node root, Visit visit) {
  pugi::xml_node node = root.first_child();
  while (node) {
    if (visit(node) && node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (node != root && !node.next_sibling()) node = node.parent();
    if (node == root) return;
    node = node.next_sibling();
  }
}

// The character data directly inside `node` (a w:t, a:t, v, ...).
void append_text(pugi::xml_node node, std::string& out) {
  for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) out += c.value();
  }
}

std::string trim(std::string_view text) {
  std::size_t begin = 0, end = text.size();
  while (begin < end && static_cast<unsigned char>(text[begin]) <= ' ') ++begin;
  while (end > begin && static_cast<unsigned char>(text[end - 1]) <= ' ') --end;
  return std::string(text.substr(begin, end - begin));
}

// One line of a tab-separated row: tabs and line breaks in a cell become spaces.
std::string flatten(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return trim(out);
}

// Sections built within limits.max_text_bytes (a section's name and heading
// line count too) and errors kept within kMaxErrors.
class Builder {
  static constexpr std::size_t kSectionCost = 8;  // "\n## " ... "\n" of its heading line

 public:
  Builder(Format format, const Limits& limits) : limits_(limits) { document_.format = format; }

  Section& add(std::string kind, std::string name, int level = 0) {
    Section& section = document_.sections.emplace_back();
    section.kind = std::move(kind);
    section.name = std::move(name);
    section.level = level;
    used_ += section.name.size() + kSectionCost;
    return section;
  }

  // Appends a line to the last section; false once the text budget is spent.
  bool line(std::string_view text) {
    if (full_) return false;
    if (document_.sections.empty()) add("document", "(start)");
    Section& section = document_.sections.back();
    std::size_t cost = text.size() + 1;
    if (used_ + cost > limits_.max_text_bytes) {
      full_ = true;
      error("text after " + std::to_string(used_) + " bytes not read");
      return false;
    }
    used_ += cost;
    if (!section.text.empty()) section.text += '\n';
    section.text += text;
    return true;
  }

  bool full() const { return full_; }

  void error(std::string message) {
    if (document_.errors.size() < kMaxErrors) {
      document_.errors.push_back(std::move(message));
    } else {
      ++dropped_errors_;
    }
  }

  Document& document() { return document_; }

  Document finish() {
    if (dropped_errors_ > 0) {
      document_.errors.push_back(std::to_string(dropped_errors_) + " more errors");
    }
    return std::move(document_);
  }

 private:
  const Limits& limits_;
  Document document_;
  std::size_t used_ = 0;
  std::size_t dropped_errors_ = 0;
  bool full_ = false;
};

// ---------------------------------------------------------------- zip

std::uint32_t le32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint64_t le64(const unsigned char* p) {
  return le32(p) | (static_cast<std::uint64_t>(le32(p + 4)) << 32);
}

// The entry count the end of central directory record declares, read before
// libzip allocates an entry for each; nullopt when there is no such record.
std::optional<std::uint64_t> declared_entries(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t size = bytes.size();
  if (size < 22) return std::nullopt;
  std::size_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
  for (std::size_t at = size - 22 + 1; at-- > lowest;) {
    if (le32(data + at) != 0x06054b50) continue;
    std::uint64_t entries = data[at + 10] | (data[at + 11] << 8);
    if (entries == 0xffff && at >= 20 && le32(data + at - 20) == 0x07064b50) {
      std::uint64_t offset = le64(data + at - 20 + 8);
      if (offset <= size - 56 && le32(data + offset) == 0x06064b50) entries = le64(data + offset + 32);
    }
    return entries;
  }
  return std::nullopt;
}

// "not a docx", "not an xlsx": how a skip_reason for the wrong kind of file starts.
std::string not_a(std::string_view format) {
  return std::string(format == "xlsx" ? "not an " : "not a ") + std::string(format);
}

// What a file that is not an Office zip is, by its first bytes.
std::optional<std::string> foreign_format(std::string_view bytes, const char* expected) {
  auto starts = [&](std::string_view magic) { return bytes.substr(0, magic.size()) == magic; };
  std::string it_is = not_a(expected) + ": it is ";
  if (starts("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")) return "encrypted or legacy (OLE) Office file";
  if (starts("%PDF")) return it_is + "a PDF";
  if (starts("PAR1")) return it_is + "a Parquet file";
  if (starts("{\\rtf")) return it_is + "RTF";
  if (starts("\x1f\x8b")) return it_is + "gzip data";
  return std::nullopt;
}

// A zip opened from memory whose members are read within the limits. The
// bytes must outlive it.
class Package {
 public:
  // nullptr with *why (a skip_reason) when the bytes are not a readable zip.
  static std::unique_ptr<Package> open(std::string_view bytes, const Limits& limits, std::string* why) {
    if (std::optional<std::uint64_t> entries = declared_entries(bytes); entries && *entries > limits.max_members) {
      *why = "zip bomb: " + std::to_string(*entries) + " members (limit " + std::to_string(limits.max_members) + ")";
      return nullptr;
    }
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    if (source == nullptr) {
      *why = std::string("corrupt zip: ") + zip_error_strerror(&error);
      zip_error_fini(&error);
      return nullptr;
    }
    zip_t* zip = zip_open_from_source(source, ZIP_RDONLY, &error);
    if (zip == nullptr) {
      zip_source_free(source);
      *why = std::string("corrupt zip: ") + zip_error_strerror(&error);
      zip_error_fini(&error);
      return nullptr;
    }
    zip_error_fini(&error);
    auto package = std::unique_ptr<Package>(new Package(zip, limits));
    zip_int64_t count = zip_get_num_entries(zip, 0);
    if (count < 0 || static_cast<std::uint64_t>(count) > limits.max_members) {
      *why = "zip bomb: " + std::to_string(count) + " members (limit " + std::to_string(limits.max_members) + ")";
      return nullptr;
    }
    return package;
  }

  ~Package() { zip_discard(zip_); }
  Package(const Package&) = delete;
  Package& operator=(const Package&) = delete;

  bool contains(const std::string& part) const { return locate(part) >= 0; }

  // The member's bytes; nullopt with *why (missing, corrupt, encrypted, bomb).
  std::optional<std::string> read(const std::string& part, std::string* why) {
    zip_int64_t index = locate(part);
    if (index < 0) {
      *why = "missing part " + part;
      return std::nullopt;
    }
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(zip_, static_cast<zip_uint64_t>(index), 0, &stat) != 0) {
      *why = "corrupt zip: " + part + ": " + zip_strerror(zip_);
      return std::nullopt;
    }
    if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE) {
      *why = "encrypted: " + part;
      return std::nullopt;
    }
    std::uint64_t compressed = (stat.valid & ZIP_STAT_COMP_SIZE) ? stat.comp_size : 0;
    std::uint64_t ratio_cap = ratio_limit(compressed);
    if (stat.valid & ZIP_STAT_SIZE) {
      if (stat.size > limits_.max_member_bytes) {
        *why = "zip bomb: " + part + " declares " + std::to_string(stat.size) + " bytes (limit " +
               std::to_string(limits_.max_member_bytes) + ")";
        return std::nullopt;
      }
      if (stat.size > ratio_cap) {
        *why = "zip bomb: " + part + " declares " + std::to_string(stat.size) + " bytes from " +
               std::to_string(compressed) + " compressed";
        return std::nullopt;
      }
      if (stat.size > remaining()) {
        *why = "zip bomb: more than " + std::to_string(limits_.max_uncompressed_bytes) + " bytes uncompressed in total";
        return std::nullopt;
      }
    }
    zip_file_t* file = zip_fopen_index(zip_, static_cast<zip_uint64_t>(index), 0);
    if (file == nullptr) {
      *why = "unreadable part " + part + ": " + zip_strerror(zip_);
      return std::nullopt;
    }
    std::string out;
    if (stat.valid & ZIP_STAT_SIZE) out.reserve(static_cast<std::size_t>(stat.size));
    char chunk[64 * 1024];
    for (;;) {
      zip_int64_t n = zip_fread(file, chunk, sizeof chunk);
      if (n < 0) {
        *why = "corrupt zip: " + part + ": " + zip_file_strerror(file);
        zip_fclose(file);
        return std::nullopt;
      }
      if (n == 0) break;
      // Counted as inflated: the declared size may lie.
      std::uint64_t total = out.size() + static_cast<std::uint64_t>(n);
      std::string over;
      if (total > limits_.max_member_bytes) {
        over = "zip bomb: " + part + " inflates past " + std::to_string(limits_.max_member_bytes) + " bytes";
      } else if (total > ratio_cap) {
        over = "zip bomb: " + part + " inflates past " + std::to_string(ratio_cap) + " bytes from " +
               std::to_string(compressed) + " compressed";
      } else if (total > remaining()) {
        over = "zip bomb: more than " + std::to_string(limits_.max_uncompressed_bytes) + " bytes uncompressed in total";
      }
      if (!over.empty()) {
        *why = std::move(over);
        read_ += out.size();
        zip_fclose(file);
        return std::nullopt;
      }
      out.append(chunk, static_cast<std::size_t>(n));
    }
    zip_fclose(file);
    read_ += out.size();
    return out;
  }

 private:
  Package(zip_t* zip, const Limits& limits) : zip_(zip), limits_(limits) {}

  zip_int64_t locate(const std::string& part) const {
    zip_int64_t index = zip_name_locate(zip_, part.c_str(), 0);
    // Part names are case-insensitive in OPC.
    if (index < 0) index = zip_name_locate(zip_, part.c_str(), ZIP_FL_NOCASE);
    return index;
  }

  std::uint64_t remaining() const {
    return read_ >= limits_.max_uncompressed_bytes ? 0 : limits_.max_uncompressed_bytes - read_;
  }

  std::uint64_t ratio_limit(std::uint64_t compressed) const {
    double cap = static_cast<double>(compressed) * limits_.max_ratio;
    if (!(cap < 1e18)) return UINT64_MAX;  // also NaN
    return std::max<std::uint64_t>(kRatioGrace, static_cast<std::uint64_t>(cap));
  }

  zip_t* zip_;
  const Limits& limits_;
  std::uint64_t read_ = 0;
};

// ---------------------------------------------------------------- XML parts

// A parsed part; keeps the bytes pugixml parsed in place.
struct Xml {
  std::string bytes;
  pugi::xml_document document;
  bool truncated = false;  // parsed only up to the node budget
  pugi::xml_node root() const { return document.document_element(); }
};

// Deepest element nesting of the tree, walked iteratively; stops past `limit`.
std::size_t depth_of(const pugi::xml_document& document, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  pugi::xml_node node = document.first_child();
  while (node) {
    if (node.first_child()) {
      node = node.first_child();
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
      continue;
    }
    while (depth > 0 && !node.next_sibling()) {
      node = node.parent();
      --depth;
    }
    node = node.next_sibling();
  }
  return deepest;
}

// Reads and parses `part`. nullptr with *why when it is missing, a zip bomb,
// too deep or not XML at all; a document with XML errors is kept as far as it
// parsed and gets an entry in `errors`. With `node_budget` the part is parsed
// only up to that many elements and attributes (`truncated` says so).
std::unique_ptr<Xml> read_xml(Package& package, const std::string& part, const Limits& limits, std::string* why,
                              std::vector<std::string>* errors, std::size_t node_budget = kMaxXmlNodes) {
  std::optional<std::string> bytes = package.read(part, why);
  if (!bytes) return nullptr;
  auto xml = std::make_unique<Xml>();
  xml->bytes = std::move(*bytes);
  // Nodes are bounded by '<' (elements, comments, ...) and '=' (attributes).
  std::size_t nodes = 0, cut = xml->bytes.size();
  node_budget = std::min(node_budget, kMaxXmlNodes);
  for (std::size_t i = 0; i < xml->bytes.size(); ++i) {
    char c = xml->bytes[i];
    if ((c == '<' || c == '=') && ++nodes > node_budget) {
      cut = i;
      break;
    }
  }
  if (cut < xml->bytes.size()) {
    if (node_budget == kMaxXmlNodes) {
      *why = part + ": more than " + std::to_string(kMaxXmlNodes) + " XML nodes";
      return nullptr;
    }
    xml->bytes.resize(cut);
    xml->truncated = true;
  }
  // Whitespace alone in an element is kept: <w:t xml:space="preserve"> </w:t>.
  unsigned options = pugi::parse_default | pugi::parse_ws_pcdata_single;
  pugi::xml_parse_result result =
      xml->document.load_buffer_inplace(xml->bytes.data(), xml->bytes.size(), options, pugi::encoding_auto);
  if (!xml->root()) {
    *why = part + ": not XML (" + result.description() + ")";
    return nullptr;
  }
  if (!result && !xml->truncated && errors != nullptr) {
    errors->push_back(part + ": XML error at byte " + std::to_string(result.offset) + ": " + result.description());
  }
  if (depth_of(xml->document, limits.max_xml_depth) > limits.max_xml_depth) {
    *why = part + ": XML nested deeper than " + std::to_string(limits.max_xml_depth);
    return nullptr;
  }
  return xml;
}

// ---------------------------------------------------------------- relationships

struct Relationship {
  std::string type;    // the URI's last segment: "officeDocument", "slide", "notesSlide", ...
  std::string target;  // a part name, resolved
};

// "word/document.xml" -> "word/_rels/document.xml.rels"; "" -> "_rels/.rels".
std::string rels_of(std::string_view part) {
  std::size_t slash = part.rfind('/');
  std::string_view dir = slash == std::string_view::npos ? std::string_view() : part.substr(0, slash + 1);
  std::string_view name = slash == std::string_view::npos ? part : part.substr(slash + 1);
  return std::string(dir) + "_rels/" + std::string(name) + ".rels";
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A relationship's target against its source part: relative to the source's
// folder unless absolute, percent-decoded, with "." and ".." resolved.
std::string resolve_target(std::string_view source, std::string_view target) {
  std::string path;
  if (!target.empty() && target.front() == '/') {
    path = target.substr(1);
  } else {
    std::size_t slash = source.rfind('/');
    path = std::string(slash == std::string_view::npos ? std::string_view() : source.substr(0, slash + 1));
    path += target;
  }
  std::string decoded;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size() && hex_digit(path[i + 1]) >= 0 && hex_digit(path[i + 2]) >= 0) {
      decoded += static_cast<char>(hex_digit(path[i + 1]) * 16 + hex_digit(path[i + 2]));
      i += 2;
    } else {
      decoded += path[i] == '\\' ? '/' : path[i];
    }
  }
  std::vector<std::string_view> segments;
  std::string_view rest(decoded);
  while (!rest.empty()) {
    std::size_t slash = rest.find('/');
    std::string_view segment = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
      continue;
    }
    segments.push_back(segment);
  }
  std::string out;
  for (std::string_view segment : segments) {
    if (!out.empty()) out += '/';
    out += segment;
  }
  return out;
}

// The relationships of `part` by id ("" for the package's own); empty when it has none.
std::map<std::string, Relationship> relationships(Package& package, const std::string& part, const Limits& limits,
                                                  Builder& builder) {
  std::map<std::string, Relationship> out;
  std::string rels = rels_of(part);
  if (!package.contains(rels)) return out;
  std::string why;
  std::vector<std::string> errors;
  std::unique_ptr<Xml> xml = read_xml(package, rels, limits, &why, &errors);
  for (std::string& e : errors) builder.error(std::move(e));
  if (!xml) {
    builder.error(why);
    return out;
  }
  for (pugi::xml_node r = xml->root().first_child(); r; r = r.next_sibling()) {
    if (!is(r, "Relationship")) continue;
    if (attribute(r, "TargetMode") == "External") continue;
    std::string_view type = attribute(r, "Type");
    std::size_t slash = type.rfind('/');
    Relationship relationship;
    relationship.type = std::string(slash == std::string_view::npos ? type : type.substr(slash + 1));
    relationship.target = resolve_target(part, attribute(r, "Target"));
    out.emplace(std::string(attribute(r, "Id")), std::move(relationship));
  }
  return out;
}

// The first target of that relationship type, or "".
std::string target_of_type(const std::map<std::string, Relationship>& rels, std::string_view type) {
  for (const auto& [id, relationship] : rels) {
    if (relationship.type == type) return relationship.target;
  }
  return {};
}

// The package's main part (from _rels/.rels, else the usual name) parsed, its
// root element's local name `root_name`. nullptr with a skip_reason in *why.
std::unique_ptr<Xml> main_part(Package& package, const char* format, const std::string& usual, std::string_view root_name,
                               const Limits& limits, Builder& builder, std::string* part, std::string* why) {
  std::map<std::string, Relationship> rels = relationships(package, "", limits, builder);
  *part = target_of_type(rels, "officeDocument");
  if (part->empty() || !package.contains(*part)) *part = usual;
  if (!package.contains(*part)) {
    std::string prefix = not_a(format) + ": ";
    if (package.contains("word/document.xml")) *why = prefix + "it is a docx";
    else if (package.contains("ppt/presentation.xml")) *why = prefix + "it is a pptx";
    else if (package.contains("xl/workbook.xml")) *why = prefix + "it is an xlsx";
    else if (package.contains("mimetype") && package.contains("content.xml")) *why = prefix + "it is an OpenDocument file";
    else *why = prefix + "no " + usual;
    return nullptr;
  }
  std::vector<std::string> errors;
  std::unique_ptr<Xml> xml = read_xml(package, *part, limits, why, &errors);
  for (std::string& e : errors) builder.error(std::move(e));
  if (xml && local_name(xml->root().name()) != root_name) {
    std::string_view root = local_name(xml->root().name());
    if (root == "document") *why = not_a(format) + ": it is a docx";
    else if (root == "presentation") *why = not_a(format) + ": it is a pptx";
    else if (root == "workbook") *why = not_a(format) + ": it is an xlsx";
    else *why = not_a(format) + ": " + *part + " holds <" + xml->root().name() + ">";
    return nullptr;
  }
  return xml;
}

// Opens the package for `format` and finds its main part; on failure sets the
// document's skip_reason and returns nullptr.
std::unique_ptr<Package> open_package(std::string_view bytes, const char* format, const Limits& limits,
                                      Builder& builder) {
  Document& document = builder.document();
  if (bytes.empty()) {
    document.skip_reason = "empty file";
    return nullptr;
  }
  if (bytes.size() > limits.max_file_bytes) {
    document.skip_reason = "too large: " + std::to_string(bytes.size()) + " bytes (limit " +
                           std::to_string(limits.max_file_bytes) + ")";
    return nullptr;
  }
  if (std::optional<std::string> foreign = foreign_format(bytes, format)) {
    document.skip_reason = *foreign;
    return nullptr;
  }
  std::string why;
  std::unique_ptr<Package> package = Package::open(bytes, limits, &why);
  if (!package) document.skip_reason = why;
  return package;
}

// Reads an optional part; problems go to the builder's errors prefixed with `what`.
std::unique_ptr<Xml> read_optional(Package& package, const std::string& part, const Limits& limits, Builder& builder,
                                   std::string_view what, std::size_t node_budget = kMaxXmlNodes) {
  std::string why;
  std::vector<std::string> errors;
  std::unique_ptr<Xml> xml = read_xml(package, part, limits, &why, &errors, node_budget);
  std::string prefix = what.empty() ? std::string() : std::string(what) + ": ";
  for (std::string& e : errors) builder.error(prefix + e);
  if (!xml) builder.error(prefix + why);
  return xml;
}

// Runs an extraction, turning anything thrown (memory) into a skip_reason.
template <typename Extract>
Document guarded(Format format, Extract extract) {
  try {
    return extract();
  } catch (const std::exception& e) {
    Document document;
    document.format = format;
    document.skip_reason = std::string("internal error: ") + e.what();
    return document;
  } catch (...) {
    Document document;
    document.format = format;
    document.skip_reason = "internal error";
    return document;
  }
}

// ---------------------------------------------------------------- docx

// Heading levels of paragraph styles: "Title" 1, "heading N" N, or the
// style's outline level, following basedOn.
class Styles {
 public:
  void load(pugi::xml_node root) {
    for (pugi::xml_node style = root.first_child(); style; style = style.next_sibling()) {
      if (!is(style, "style")) continue;
      Entry entry;
      entry.based_on = std::string(attribute(child(style, "basedOn"), "val"));
      entry.level = level_of_name(attribute(child(style, "name"), "val"));
      if (entry.level == 0) entry.level = outline_level(child(style, "pPr"));
      styles_[std::string(attribute(style, "styleId"))] = std::move(entry);
    }
  }

  int level(std::string_view id) const {
    std::string current(id);
    for (int hops = 0; hops < 16 && !current.empty(); ++hops) {
      auto found = styles_.find(current);
      if (found == styles_.end()) break;
      if (found->second.level > 0) return found->second.level;
      current = found->second.based_on;
    }
    // Without styles.xml (or an unknown id), the built-in ids.
    return level_of_name(id);
  }

  // w:outlineLvl 0..8 is heading 1..9; 9 is body text.
  static int outline_level(pugi::xml_node properties) {
    pugi::xml_node outline = child(properties, "outlineLvl");
    if (!outline) return 0;
    std::string_view value = attribute(outline, "val");
    if (value.size() == 1 && value[0] >= '0' && value[0] <= '8') return value[0] - '0' + 1;
    return 0;
  }

 private:
  struct Entry {
    std::string based_on;
    int level = 0;
  };

  // "Title", "heading 2", "Heading2" (case-insensitive).
  static int level_of_name(std::string_view name) {
    std::string lower;
    for (char c : name) {
      if (c != ' ') lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    if (lower == "title") return 1;
    if (lower.size() == 8 && lower.compare(0, 7, "heading") == 0 && lower[7] >= '1' && lower[7] <= '9') {
      return lower[7] - '0';
    }
    return 0;
  }

  std::map<std::string, Entry, std::less<>> styles_;
};

// The text of a WordprocessingML subtree (a paragraph, a cell, a note): runs'
// w:t, w:tab and w:br in runs ('\t', '\n'; a w:tab in w:tabs is a tab stop),
// note references as [^N]. Nested paragraphs and cells (text boxes, tables in
// cells) are separated by a space; mc:Fallback copies are skipped.
std::string word_text(pugi::xml_node root) {
  std::string out;
  auto separate = [&] {
    if (!out.empty() && out.back() != ' ' && out.back() != '\n' && out.back() != '\t') out += ' ';
  };
  walk(root, [&](pugi::xml_node node) {
    if (node.type() != pugi::node_element) return false;
    std::string_view name = local_name(node.name());
    std::string_view parent = local_name(node.parent().name());
    if (name == "t") {
      append_text(node, out);
      return false;
    }
    if (name == "pPr" || name == "rPr" || name == "Fallback" || name == "delText" || name == "instrText" ||
        name == "tblPr" || name == "trPr" || name == "tcPr" || name == "sectPr") {
      return false;
    }
    if (parent == "r") {
      if (name == "tab" || name == "ptab") out += '\t';
      else if (name == "br" || name == "cr") out += '\n';
      else if (name == "noBreakHyphen") out += '-';
      else if (name == "footnoteReference") out += "[^" + std::string(attribute(node, "id")) + "]";
      else if (name == "endnoteReference") out += "[^e" + std::string(attribute(node, "id")) + "]";
    }
    if (name == "p" || name == "tc") separate();
    return true;
  });
  return out;
}

struct Paragraph {
  std::string text;
  int heading = 0;  // 0: not a heading
  bool list = false;
};

Paragraph word_paragraph(pugi::xml_node p, const Styles& styles) {
  Paragraph paragraph;
  pugi::xml_node properties = child(p, "pPr");
  if (properties) {
    paragraph.heading = Styles::outline_level(properties);
    if (paragraph.heading == 0) {
      std::string_view style = attribute(child(properties, "pStyle"), "val");
      if (!style.empty()) paragraph.heading = styles.level(style);
    }
    paragraph.list = static_cast<bool>(child(properties, "numPr"));
  }
  paragraph.text = word_text(p);
  return paragraph;
}

// A table as lines of tab-separated cells.
void word_table(pugi::xml_node table, Builder& builder) {
  walk(table, [&](pugi::xml_node node) {
    if (node.type() != pugi::node_element) return false;
    std::string_view name = local_name(node.name());
    if (name == "tblPr" || name == "tblGrid" || name == "Fallback") return false;
    if (name != "tr") return true;  // w:sdt, w:customXml around rows
    std::vector<std::string> cells;
    walk(node, [&](pugi::xml_node cell) {
      if (cell.type() != pugi::node_element) return false;
      std::string_view cell_name = local_name(cell.name());
      if (cell_name == "trPr" || cell_name == "Fallback") return false;
      if (cell_name != "tc") return true;
      cells.push_back(flatten(word_text(cell)));
      return false;
    });
    bool any = std::any_of(cells.begin(), cells.end(), [](const std::string& c) { return !c.empty(); });
    if (any) {
      std::string line;
      for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "\t" : "") + cells[i];
      builder.line(line);
    }
    return false;
  });
}

// Footnotes or endnotes as "[^N]: text" lines ("[^eN]" for endnotes).
void word_notes(Package& package, const std::string& part, const char* title, std::string_view marker,
                const Limits& limits, Builder& builder) {
  if (part.empty() || !package.contains(part)) return;
  std::unique_ptr<Xml> xml = read_optional(package, part, limits, builder, "");
  if (!xml) return;
  bool started = false;
  for (pugi::xml_node note = xml->root().first_child(); note && !builder.full(); note = note.next_sibling()) {
    if (!is(note, "footnote") && !is(note, "endnote")) continue;
    std::string_view type = attribute(note, "type");
    if (!type.empty() && type != "normal") continue;  // separators
    std::string text = trim(word_text(note));
    if (text.empty()) continue;
    if (!started) {
      builder.add("section", title, 1);
      started = true;
    }
    builder.line("[^" + std::string(marker) + std::string(attribute(note, "id")) + "]: " + text);
  }
}

void word_comments(Package& package, const std::string& part, const Limits& limits, Builder& builder) {
  if (part.empty() || !package.contains(part)) return;
  std::unique_ptr<Xml> xml = read_optional(package, part, limits, builder, "");
  if (!xml) return;
  bool started = false;
  for (pugi::xml_node comment = xml->root().first_child(); comment && !builder.full();
       comment = comment.next_sibling()) {
    if (!is(comment, "comment")) continue;
    std::string text = trim(word_text(comment));
    if (text.empty()) continue;
    if (!started) {
      builder.add("section", "Comments", 1);
      started = true;
    }
    std::string author(attribute(comment, "author"));
    builder.line(author.empty() ? text : author + ": " + text);
  }
}

Document docx(std::string_view bytes, const Limits& limits) {
  Builder builder(Format::kDocx, limits);
  std::unique_ptr<Package> package = open_package(bytes, "docx", limits, builder);
  if (!package) return builder.finish();
  std::string part, why;
  std::unique_ptr<Xml> xml = main_part(*package, "docx", "word/document.xml", "document", limits, builder, &part, &why);
  if (!xml) {
    builder.document().skip_reason = why;
    return builder.finish();
  }
  std::map<std::string, Relationship> rels = relationships(*package, part, limits, builder);
  auto related = [&](std::string_view type, const char* usual) {
    std::string target = target_of_type(rels, type);
    return target.empty() ? std::string(usual) : target;
  };

  Styles styles;
  if (std::string styles_part = related("styles", "word/styles.xml"); package->contains(styles_part)) {
    if (std::unique_ptr<Xml> styles_xml = read_optional(*package, styles_part, limits, builder, "")) {
      styles.load(styles_xml->root());
    }
  }

  pugi::xml_node body = child(xml->root(), "body");
  bool too_many_headings = false;
  walk(body, [&](pugi::xml_node node) {
    if (builder.full() || node.type() != pugi::node_element) return false;
    std::string_view name = local_name(node.name());
    if (name == "sectPr" || name == "Fallback" || name == "sdtPr" || name == "sdtEndPr") return false;
    if (name == "tbl") {
      word_table(node, builder);
      return false;
    }
    if (name != "p") return true;  // w:sdt, w:customXml, mc:AlternateContent, ...
    Paragraph paragraph = word_paragraph(node, styles);
    if (paragraph.heading > 0) {
      std::string heading = flatten(paragraph.text);
      if (!heading.empty() && builder.document().sections.size() < kMaxSections) {
        builder.add("section", heading, paragraph.heading);
        return false;
      }
      if (!heading.empty() && !too_many_headings) {
        builder.error("headings after " + std::to_string(kMaxSections) + " read as text");
        too_many_headings = true;
      }
    }
    std::string text = trim(paragraph.text);
    if (!text.empty()) builder.line(paragraph.list ? "- " + text : text);
    return false;
  });
  // Text before the first heading went into "(start)" (Builder::line); an
  // empty one is never created.

  word_notes(*package, related("footnotes", "word/footnotes.xml"), "Footnotes", "", limits, builder);
  word_notes(*package, related("endnotes", "word/endnotes.xml"), "Endnotes", "e", limits, builder);
  word_comments(*package, related("comments", "word/comments.xml"), limits, builder);
  return builder.finish();
}

// ---------------------------------------------------------------- pptx

// A DrawingML text body (p:txBody, a:txBody): paragraphs as lines; a:br is a
// line break and a:tab a tab only where it stands in the runs (in a:tabLst it
// is a tab stop); empty paragraphs are dropped.
std::string drawing_text(pugi::xml_node body) {
  std::string out;
  for (pugi::xml_node p = body.first_child(); p; p = p.next_sibling()) {
    if (!is(p, "p")) continue;
    std::string line;
    for (pugi::xml_node run = p.first_child(); run; run = run.next_sibling()) {
      if (run.type() != pugi::node_element) continue;
      std::string_view name = local_name(run.name());
      if (name == "r" || name == "fld") {
        for (pugi::xml_node t = run.first_child(); t; t = t.next_sibling()) {
          if (is(t, "t")) append_text(t, line);
        }
      } else if (name == "br") {
        line += '\n';
      } else if (name == "tab") {
        line += '\t';
      }
    }
    std::string text = trim(line);
    if (text.empty()) continue;
    if (!out.empty()) out += '\n';
    out += text;
  }
  return out;
}

// A DrawingML table: rows of tab-separated cells.
std::string drawing_table(pugi::xml_node table) {
  std::string out;
  for (pugi::xml_node row = table.first_child(); row; row = row.next_sibling()) {
    if (!is(row, "tr")) continue;
    std::vector<std::string> cells;
    for (pugi::xml_node cell = row.first_child(); cell; cell = cell.next_sibling()) {
      if (is(cell, "tc")) cells.push_back(flatten(drawing_text(child(cell, "txBody"))));
    }
    if (std::none_of(cells.begin(), cells.end(), [](const std::string& c) { return !c.empty(); })) continue;
    if (!out.empty()) out += '\n';
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "\t" : "") + cells[i];
  }
  return out;
}

// The placeholder type of a p:sp ("title", "body", ...), "" when it has none.
std::string_view placeholder_type(pugi::xml_node shape) {
  pugi::xml_node ph = child(child(child(shape, "nvSpPr"), "nvPr"), "ph");
  if (!ph) return {};
  std::string_view type = attribute(ph, "type");
  return type.empty() ? std::string_view("obj") : type;  // a ph without type is a content placeholder
}

struct SlideText {
  std::vector<std::string> blocks;  // text frames and tables in order
  std::string title;
};

// The shapes of a p:spTree in order, into groups; `keep(placeholder type)`
// says which text frames count.
template <typename Keep>
SlideText shape_tree_text(pugi::xml_node tree, Keep keep) {
  SlideText out;
  walk(tree, [&](pugi::xml_node node) {
    if (node.type() != pugi::node_element) return false;
    std::string_view name = local_name(node.name());
    if (name == "sp") {
      std::string_view type = placeholder_type(node);
      if (!keep(type)) return false;
      std::string text = drawing_text(child(node, "txBody"));
      if ((type == "title" || type == "ctrTitle") && out.title.empty()) out.title = flatten(text);
      if (!text.empty()) out.blocks.push_back(std::move(text));
      return false;
    }
    if (name == "graphicFrame") {
      walk(node, [&](pugi::xml_node inner) {
        if (!is(inner, "tbl")) return inner.type() == pugi::node_element && !is(inner, "Fallback");
        std::string text = drawing_table(inner);
        if (!text.empty()) out.blocks.push_back(std::move(text));
        return false;
      });
      return false;
    }
    // Groups and mc:AlternateContent's Choice hold shapes; the rest holds none.
    return name == "grpSp" || name == "AlternateContent" || name == "Choice";
  });
  return out;
}

Document pptx(std::string_view bytes, const Limits& limits) {
  Builder builder(Format::kPptx, limits);
  std::unique_ptr<Package> package = open_package(bytes, "pptx", limits, builder);
  if (!package) return builder.finish();
  std::string part, why;
  std::unique_ptr<Xml> xml =
      main_part(*package, "pptx", "ppt/presentation.xml", "presentation", limits, builder, &part, &why);
  if (!xml) {
    builder.document().skip_reason = why;
    return builder.finish();
  }
  std::map<std::string, Relationship> rels = relationships(*package, part, limits, builder);
  std::size_t count = 0;
  for (pugi::xml_node id = child(child(xml->root(), "sldIdLst"), "sldId"); id && !builder.full();
       id = id.next_sibling()) {
    if (!is(id, "sldId")) continue;
    std::string name = "Slide " + std::to_string(++count);
    // A presentation cannot show more distinct slides than the zip has members.
    if (count > limits.max_members) {
      builder.error("slides after " + std::to_string(limits.max_members) + " not read");
      break;
    }
    builder.add("slide", name);
    std::size_t index = builder.document().sections.size() - 1;
    auto found = rels.find(std::string(attribute(id, "id", /*prefixed=*/true)));
    if (found == rels.end()) {
      builder.error(name + ": no relationship " + std::string(attribute(id, "id", true)));
      continue;
    }
    std::string slide_part = found->second.target;
    std::unique_ptr<Xml> slide = read_optional(*package, slide_part, limits, builder, name);
    if (!slide) continue;
    SlideText text = shape_tree_text(child(child(slide->root(), "cSld"), "spTree"), [](std::string_view) { return true; });
    builder.document().sections[index].signature = text.title;
    for (const std::string& block : text.blocks) {
      if (!builder.line(block)) break;
    }
    std::map<std::string, Relationship> slide_rels = relationships(*package, slide_part, limits, builder);
    std::string notes_part = target_of_type(slide_rels, "notesSlide");
    if (notes_part.empty() || builder.full()) continue;
    std::unique_ptr<Xml> notes = read_optional(*package, notes_part, limits, builder, name + " notes");
    if (!notes) continue;
    SlideText notes_text = shape_tree_text(child(child(notes->root(), "cSld"), "spTree"),
                                           [](std::string_view type) { return type == "body"; });
    std::string joined;
    for (const std::string& block : notes_text.blocks) joined += (joined.empty() ? "" : "\n") + block;
    if (!joined.empty()) builder.line("Notes: " + joined);
  }
  return builder.finish();
}

// ---------------------------------------------------------------- xlsx

// A row number or string index: 1 to 9 decimal digits, nothing else.
std::optional<long> small_number(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  long n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

// "BC12" -> 54 (0-based column), -1 when it names no column.
long column_of(std::string_view reference) {
  long column = 0;
  std::size_t i = 0;
  for (; i < reference.size() && i < 4; ++i) {
    char c = reference[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c < 'A' || c > 'Z') break;
    column = column * 26 + (c - 'A' + 1);
  }
  return i == 0 ? -1 : column - 1;
}

// Text of a shared string or inline string: its t, or its runs' t (not the
// phonetic rPh).
std::string string_item(pugi::xml_node item) {
  std::string out;
  for (pugi::xml_node node = item.first_child(); node; node = node.next_sibling()) {
    if (is(node, "t")) {
      append_text(node, out);
    } else if (is(node, "r")) {
      for (pugi::xml_node t = node.first_child(); t; t = t.next_sibling()) {
        if (is(t, "t")) append_text(t, out);
      }
    }
  }
  return out;
}

std::vector<std::string> shared_strings(Package& package, const std::string& part, const Limits& limits,
                                        Builder& builder) {
  std::vector<std::string> out;
  if (part.empty() || !package.contains(part)) return out;
  std::unique_ptr<Xml> xml = read_optional(package, part, limits, builder, "");
  if (!xml) return out;
  for (pugi::xml_node item = xml->root().first_child(); item; item = item.next_sibling()) {
    if (is(item, "si")) out.push_back(string_item(item));
  }
  return out;
}

// A cell's text as written: shared, inline and formula strings, numbers,
// booleans, errors.
std::string cell_text(pugi::xml_node cell, const std::vector<std::string>& strings, bool* bad_index) {
  std::string_view type = attribute(cell, "t");
  if (type == "inlineStr") return string_item(child(cell, "is"));
  std::string value;
  append_text(child(cell, "v"), value);
  if (type == "s") {
    std::optional<long> n = small_number(trim(value));
    if (!n || static_cast<std::size_t>(*n) >= strings.size()) {
      *bad_index = true;
      return {};
    }
    return strings[static_cast<std::size_t>(*n)];
  }
  if (type == "b") return trim(value) == "1" ? "TRUE" : trim(value).empty() ? "" : "FALSE";
  return value;
}

void xlsx_sheet(Package& package, const std::string& sheet_name, const std::string& part,
                const std::vector<std::string>& strings, const Limits& limits, Builder& builder) {
  std::string what = "sheet " + sheet_name;
  // Cells past the limit are not read; nor are most of their nodes parsed (a
  // cell is a few elements and attributes).
  std::size_t budget = limits.max_cells_per_sheet > kMaxXmlNodes / 8 ? kMaxXmlNodes
                                                                      : limits.max_cells_per_sheet * 8 + 4096;
  std::unique_ptr<Xml> xml = read_optional(package, part, limits, builder, what, budget);
  if (!xml) return;
  std::size_t index = builder.document().sections.size() - 1;

  // Cells are kept sparse (a cell at XFD is one entry, not 16,384) and rows
  // laid out only while the text budget lasts.
  struct Row {
    long number;
    std::vector<std::pair<long, std::string>> cells;  // column, text; in document order
  };
  std::vector<Row> rows;
  std::size_t cells_read = 0;
  bool stopped = false, bad_index = false;
  long previous_row = 0;
  for (pugi::xml_node row = child(child(xml->root(), "sheetData"), "row"); row && !stopped; row = row.next_sibling()) {
    if (!is(row, "row")) continue;
    long number = previous_row + 1;
    if (std::optional<long> r = small_number(attribute(row, "r"))) number = *r;
    previous_row = number;
    Row out{number, {}};
    long next_column = 0;
    for (pugi::xml_node cell = row.first_child(); cell; cell = cell.next_sibling()) {
      if (!is(cell, "c")) continue;
      if (cells_read == limits.max_cells_per_sheet) {
        stopped = true;
        break;
      }
      ++cells_read;
      long column = column_of(attribute(cell, "r"));
      if (column < 0) column = next_column;
      column = std::min<long>(column, kMaxColumns - 1);
      next_column = column + 1;
      std::string text = flatten(cell_text(cell, strings, &bad_index));
      if (!text.empty()) out.cells.emplace_back(column, std::move(text));
    }
    if (!out.cells.empty()) rows.push_back(std::move(out));
  }
  if (stopped || xml->truncated) {
    builder.error(what + ": cells after " + std::to_string(cells_read) + " not read");
  }
  if (bad_index) builder.error(what + ": shared string index out of range");
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.number < b.number; });

  if (!rows.empty()) {
    std::string signature;
    for (const auto& [column, text] : rows.front().cells) signature += (signature.empty() ? "" : " | ") + text;
    builder.document().sections[index].signature = std::move(signature);
  }
  for (const Row& row : rows) {
    // A cell in column c follows c tabs; a repeated or backward column, one.
    std::string line;
    long at = 0;
    for (const auto& [column, text] : row.cells) {
      if (column > at) {
        line.append(static_cast<std::size_t>(column - at), '\t');
        at = column;
      } else if (!line.empty()) {
        line += '\t';
        ++at;
      }
      line += text;
    }
    if (!builder.line(line)) break;
  }
}

Document xlsx(std::string_view bytes, const Limits& limits) {
  Builder builder(Format::kXlsx, limits);
  std::unique_ptr<Package> package = open_package(bytes, "xlsx", limits, builder);
  if (!package) return builder.finish();
  std::string part, why;
  std::unique_ptr<Xml> xml = main_part(*package, "xlsx", "xl/workbook.xml", "workbook", limits, builder, &part, &why);
  if (!xml) {
    builder.document().skip_reason = why;
    return builder.finish();
  }
  std::map<std::string, Relationship> rels = relationships(*package, part, limits, builder);
  std::string strings_part = target_of_type(rels, "sharedStrings");
  if (strings_part.empty()) strings_part = "xl/sharedStrings.xml";
  std::vector<std::string> strings = shared_strings(*package, strings_part, limits, builder);

  std::size_t count = 0;
  for (pugi::xml_node sheet = child(child(xml->root(), "sheets"), "sheet"); sheet && !builder.full();
       sheet = sheet.next_sibling()) {
    if (!is(sheet, "sheet")) continue;
    if (++count > limits.max_members) {
      builder.error("sheets after " + std::to_string(limits.max_members) + " not read");
      break;
    }
    std::string name(attribute(sheet, "name"));
    if (name.empty()) name = "Sheet " + std::to_string(count);
    builder.add("sheet", name);
    std::string rid(attribute(sheet, "id", /*prefixed=*/true));
    auto found = rels.find(rid);
    if (found == rels.end()) {
      builder.error("sheet " + name + ": no relationship " + rid);
      continue;
    }
    xlsx_sheet(*package, name, found->second.target, strings, limits, builder);
  }
  return builder.finish();
}

}  // namespace

Document extract_docx(std::string_view bytes, const Limits& limits) {
  return guarded(Format::kDocx, [&] { return docx(bytes, limits); });
}

Document extract_pptx(std::string_view bytes, const Limits& limits) {
  return guarded(Format::kPptx, [&] { return pptx(bytes, limits); });
}

Document extract_xlsx(std::string_view bytes, const Limits& limits) {
  return guarded(Format::kXlsx, [&] { return xlsx(bytes, limits); });
}

}  // namespace comp::docs
