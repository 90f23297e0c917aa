// meshio.cpp: mesh and pose file readers. Triangle i must be the same
// triangle as in the Go loader (mesh/obj, mesh/off, mesh/stl): triangles in
// file order, polygons fan-triangulated as (v0, vi, vi+1), STL facets one
// triangle each with three vertices of their own. The accepted syntax and
// the checks follow the Go readers closely, so that a file either loads the
// same in both or fails in both.

#include "meshio.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace peers {
namespace {

// Limits of the Go loader (mesh.MaxVertices, mesh.MaxTriangles), which also
// keep every index within int32.
constexpr int64_t kMaxVertices = int64_t(1) << 28;
constexpr int64_t kMaxTriangles = int64_t(1) << 28;
constexpr int64_t kMaxFaceVerts = int64_t(1) << 20;

// ---------------------------------------------------------------------------
// Errors

[[noreturn]] void fail(const std::string& path, const std::string& msg) {
    throw InputError(path + ": " + msg);
}

[[noreturn]] void failLine(const std::string& path, long line, const std::string& msg) {
    throw InputError(path + ":" + std::to_string(line) + ": " + msg);
}

[[noreturn]] void failOffset(const std::string& path, uint64_t off, const std::string& msg) {
    throw InputError(path + ": offset " + std::to_string(off) + ": " + msg);
}

// quote renders a token for a message: in double quotes, escaped, cut to
// 40 bytes.
std::string quote(std::string_view tok) {
    std::string out = "\"";
    std::size_t n = std::min<std::size_t>(tok.size(), 40);
    for (std::size_t i = 0; i < n; i++) {
        unsigned char c = static_cast<unsigned char>(tok[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    out += '"';
    if (tok.size() > n) out += "...";
    return out;
}

// ---------------------------------------------------------------------------
// Input

// readFile returns the whole content of the file at path.
std::string readFile(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) fail(path, std::strerror(errno));
    std::string data;
    char buf[1 << 16];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
    int err = std::ferror(f) ? errno : 0;
    std::fclose(f);
    if (err != 0) fail(path, std::string("read error: ") + std::strerror(err));
    return data;
}

// isSpace reports white space within a line of OBJ, OFF and pose files. A
// CR is not one: the line reader drops the CR of a CRLF line end, and a CR
// elsewhere makes a malformed field, as in the Go readers.
inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

// LineReader splits text into lines (without the '\n' and a final '\r'),
// counting them from 1.
class LineReader {
public:
    explicit LineReader(std::string_view data) : data_(data) {}

    // skipBOM skips a UTF-8 byte order mark at the start.
    void skipBOM() {
        if (pos_ == 0 && data_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    }

    bool next(std::string_view& line) {
        if (pos_ >= data_.size()) return false;
        std::size_t end = data_.find('\n', pos_);
        if (end == std::string_view::npos) end = data_.size();
        line = data_.substr(pos_, end - pos_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos_ = end + 1;
        line_++;
        return true;
    }

    long line() const { return line_; }

private:
    std::string_view data_;
    std::size_t pos_ = 0;
    long line_ = 0;
};

// skipSpace returns the index of the first non-space byte of b at or after i.
inline std::size_t skipSpace(std::string_view b, std::size_t i) {
    while (i < b.size() && isSpace(b[i])) i++;
    return i;
}

// nextField stores in tok the next space-separated field of b at or after
// i, and advances i past it. It returns false at the end of b.
inline bool nextField(std::string_view b, std::size_t& i, std::string_view& tok) {
    i = skipSpace(b, i);
    if (i >= b.size()) return false;
    std::size_t start = i;
    while (i < b.size() && !isSpace(b[i])) i++;
    tok = b.substr(start, i - start);
    return true;
}

// lastNonSpace returns the length of b without its trailing spaces.
inline std::size_t lastNonSpace(std::string_view b) {
    std::size_t n = b.size();
    while (n > 0 && isSpace(b[n - 1])) n--;
    return n;
}

// cutComment removes a '#' comment from b.
inline std::string_view cutComment(std::string_view b) {
    std::size_t h = b.find('#');
    return h == std::string_view::npos ? b : b.substr(0, h);
}

// ---------------------------------------------------------------------------
// Numbers

enum class Num { ok, malformed, nonFinite, outOfRange };

// parseNumber parses tok, all of it, as a double with strtod (correctly
// rounded). NaN, infinities and values beyond the double range are
// nonFinite, values beyond the double range outOfRange; an underflow to zero
// or a subnormal is fine.
Num parseNumber(std::string_view tok, double& out) {
    if (tok.empty()) return Num::malformed;
    char small[64];
    std::string big;
    const char* s;
    if (tok.size() < sizeof small) {
        std::memcpy(small, tok.data(), tok.size());
        small[tok.size()] = '\0';
        s = small;
    } else {
        big.assign(tok);
        s = big.c_str();
    }
    if (std::isspace(static_cast<unsigned char>(s[0]))) return Num::malformed;  // strtod would skip it
    char* end = nullptr;
    errno = 0;
    double v = std::strtod(s, &end);
    if (end != s + tok.size()) return Num::malformed;
    if (!std::isfinite(v)) return errno == ERANGE ? Num::outOfRange : Num::nonFinite;
    out = v;
    return Num::ok;
}

std::string describe(Num e, std::string_view tok) {
    switch (e) {
    case Num::nonFinite:
        return "non-finite number " + quote(tok);
    case Num::outOfRange:
        return "number " + quote(tok) + " out of the double range";
    default:
        return "malformed number " + quote(tok);
    }
}

// parseUint parses tok as decimal digits. A value beyond limit is returned
// as limit+1. It returns false if tok is not made of digits only.
bool parseUint(std::string_view tok, int64_t limit, int64_t& out) {
    if (tok.empty()) return false;
    int64_t x = 0;
    for (char c : tok) {
        if (c < '0' || c > '9') return false;
        if (x <= limit) x = x * 10 + (c - '0');
    }
    out = std::min(x, limit + 1);
    return true;
}

// Fan fan-triangulates a polygon as its vertex indices arrive:
// (p0 p1 p2), (p0 p2 p3), ...
class Fan {
public:
    void add(std::vector<int32_t>& tris, int64_t v) {
        if (n_ == 0) {
            first_ = v;
        } else if (n_ >= 2) {
            tris.push_back(int32_t(first_));
            tris.push_back(int32_t(prev_));
            tris.push_back(int32_t(v));
        }
        prev_ = v;
        n_++;
    }
    int64_t size() const { return n_; }

private:
    int64_t first_ = 0, prev_ = 0, n_ = 0;
};

// ---------------------------------------------------------------------------
// OBJ

Mesh readObj(const std::string& path, std::string_view data) {
    Mesh m;
    LineReader lr(data);
    lr.skipBOM();
    std::string joined;  // a statement continued over lines with '\'
    // Positive indices may refer to vertices defined later in the file;
    // they are checked at the end. Only increasing ones are kept.
    std::vector<std::pair<int64_t, long>> forward;
    std::string_view b;
    while (lr.next(b)) {
        long line = lr.line();
        std::size_t i = skipSpace(b, 0);
        if (i >= b.size()) continue;
        char kw = b[i];
        if ((kw != 'v' && kw != 'f') || (i + 1 < b.size() && !isSpace(b[i + 1]) && b[i + 1] != '#'))
            continue;  // vt, vn, comments and every other statement
        b = b.substr(i + 1);
        std::size_t n = lastNonSpace(b);
        if (n > 0 && b[n - 1] == '\\' && b.find('#') == std::string_view::npos) {
            joined.assign(b.substr(0, n - 1));
            joined += ' ';
            std::string_view c;
            while (lr.next(c)) {
                std::size_t k = lastNonSpace(c);
                bool more = k > 0 && c[k - 1] == '\\' && c.find('#') == std::string_view::npos;
                if (more) c = c.substr(0, k - 1);
                joined.append(c);
                joined += ' ';
                if (!more) break;
            }
            b = joined;
        }
        b = cutComment(b);

        std::size_t j = 0;
        std::string_view tok;
        if (kw == 'v') {
            double c[3] = {0, 0, 0};
            int k = 0;
            for (; nextField(b, j, tok); k++) {
                double x;
                Num e = parseNumber(tok, x);
                if (e != Num::ok) failLine(path, line, describe(e, tok));
                if (k < 3) c[k] = x;
            }
            if (k < 3) failLine(path, line, "vertex has " + std::to_string(k) + " coordinates, need 3");
            if (int64_t(m.numVerts()) >= kMaxVertices)
                failLine(path, line, "more than " + std::to_string(kMaxVertices) + " vertices");
            m.verts.insert(m.verts.end(), c, c + 3);
            continue;
        }

        int64_t nv = int64_t(m.numVerts());
        Fan fan;
        while (nextField(b, j, tok)) {
            std::string_view v = tok.substr(0, tok.find('/'));  // v, v/vt, v//vn, v/vt/vn
            bool neg = !v.empty() && v[0] == '-';
            std::string_view digits = (neg || (!v.empty() && v[0] == '+')) ? v.substr(1) : v;
            int64_t x;
            if (!parseUint(digits, kMaxVertices, x)) failLine(path, line, "malformed face vertex " + quote(tok));
            if (x == 0) failLine(path, line, "face vertex index 0 (indices start at 1)");
            int64_t idx;
            if (neg) {
                if (x > nv)
                    failLine(path, line, "face vertex index " + std::string(v) + " out of range (" +
                                             std::to_string(nv) + " vertices so far)");
                idx = nv - x;
            } else {
                if (x > kMaxVertices)
                    failLine(path, line, "face vertex index " + std::string(v) + " out of range (more than " +
                                             std::to_string(kMaxVertices) + ")");
                if (x > nv && (forward.empty() || x > forward.back().first)) forward.emplace_back(x, line);
                idx = x - 1;
            }
            if (fan.size() >= kMaxFaceVerts)
                failLine(path, line, "face has more than " + std::to_string(kMaxFaceVerts) + " vertices");
            if (fan.size() >= 2 && int64_t(m.numTris()) >= kMaxTriangles)
                failLine(path, line, "more than " + std::to_string(kMaxTriangles) + " triangles");
            fan.add(m.tris, idx);
        }
        if (fan.size() < 3)
            failLine(path, line, "face has " + std::to_string(fan.size()) + " vertices, need at least 3");
    }
    int64_t nv = int64_t(m.numVerts());
    for (const auto& [index, line] : forward) {
        if (index > nv)
            failLine(path, line, "face vertex index " + std::to_string(index) + " out of range (" +
                                     std::to_string(nv) + " vertices in the file)");
    }
    return m;
}

// ---------------------------------------------------------------------------
// OFF

// OffReader reads the data lines of an OFF file: comments removed, blank
// lines skipped.
class OffReader {
public:
    OffReader(const std::string& path, std::string_view data) : path_(path), lr_(data) { lr_.skipBOM(); }

    // next returns the next line holding data. At the end of the input it
    // returns false and line() is the last line.
    bool next(std::string_view& b) {
        while (lr_.next(b)) {
            b = cutComment(b);
            if (skipSpace(b, 0) < b.size()) {
                line_ = lr_.line();
                return true;
            }
        }
        line_ = std::max(lr_.line(), 1L);
        return false;
    }

    [[noreturn]] void fail(const std::string& msg) const { failLine(path_, line_, msg); }
    [[noreturn]] void eof(const std::string& what) const { fail("unexpected end of file: " + what); }

private:
    const std::string& path_;
    LineReader lr_;
    long line_ = 1;
};

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool cutPrefix(std::string_view& s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
}

Mesh readOff(const std::string& path, std::string_view data) {
    OffReader r(path, data);
    std::string_view b;
    if (!r.next(b)) r.eof("no OFF header");
    std::size_t i = 0;
    std::string_view tok;
    nextField(b, i, tok);
    std::string_view rest = b;  // where the counts are, if on this line
    if (tok.empty() || tok[0] < '0' || tok[0] > '9' || endsWith(tok, "OFF")) {
        // Header keyword [ST][C][N][4][n]OFF.
        std::string_view p = tok;
        if (!endsWith(p, "OFF")) r.fail("missing OFF header (the file starts with " + quote(tok) + ")");
        p.remove_suffix(3);
        cutPrefix(p, "ST");
        cutPrefix(p, "C");
        cutPrefix(p, "N");
        bool four = cutPrefix(p, "4");
        bool ndim = cutPrefix(p, "n");
        if (!p.empty()) r.fail("unknown header keyword " + quote(tok));
        if (four) r.fail(quote(tok) + " (homogeneous 4D coordinates) is not supported");
        rest = b.substr(i);
        std::size_t k = 0;
        std::string_view word;
        if (nextField(rest, k, word) && word == "BINARY") r.fail("binary OFF is not supported");
        if (ndim) {
            k = 0;
            if (!nextField(rest, k, word)) {
                if (!r.next(rest)) r.eof("no nOFF dimension");
                k = 0;
                nextField(rest, k, word);
            }
            int64_t dim;
            if (!parseUint(word, 1000, dim)) r.fail("malformed nOFF dimension " + quote(word));
            if (dim != 3) r.fail("nOFF dimension " + std::string(word) + " is not supported (only 3)");
            rest = rest.substr(k);
        }
    }

    // Counts "nv nf [ne]", here or on the next data line.
    if (skipSpace(rest, 0) == rest.size() && !r.next(rest)) r.eof("no vertex and face counts");
    int64_t counts[3] = {0, 0, 0};
    const int64_t limits[3] = {kMaxVertices, kMaxTriangles, int64_t(1) << 40};
    const char* names[3] = {"vertex", "face", "edge"};
    int n = 0;
    std::size_t k = 0;
    for (; nextField(rest, k, tok); n++) {
        if (n == 3) r.fail("unexpected " + quote(tok) + " after the vertex, face and edge counts");
        if (!parseUint(tok, limits[n], counts[n])) r.fail(std::string("malformed ") + names[n] + " count " + quote(tok));
        if (counts[n] > limits[n] && n < 2)
            r.fail(std::string(names[n]) + " count " + std::string(tok) + " exceeds the limit of " +
                   std::to_string(limits[n]));
    }
    if (n < 2) r.fail("expected vertex and face counts, got " + std::to_string(n) + " number(s)");
    const int64_t nv = counts[0], nf = counts[1];

    Mesh m;
    m.verts.reserve(std::size_t(3 * std::min<int64_t>(nv, 1 << 16)));
    m.tris.reserve(std::size_t(3 * std::min<int64_t>(nf, 1 << 16)));
    for (int64_t v = 0; v < nv; v++) {
        if (!r.next(b)) r.eof(std::to_string(v) + " of " + std::to_string(nv) + " vertices read");
        std::size_t j = 0;
        for (int c = 0; c < 3; c++) {
            if (!nextField(b, j, tok)) r.fail("vertex has " + std::to_string(c) + " coordinates, need 3");
            double x;
            Num e = parseNumber(tok, x);
            if (e != Num::ok) r.fail(describe(e, tok));
            m.verts.push_back(x);
        }
        // Further fields (colors, normals) are skipped.
    }
    for (int64_t f = 0; f < nf; f++) {
        if (!r.next(b)) r.eof(std::to_string(f) + " of " + std::to_string(nf) + " faces read");
        std::size_t j = 0;
        nextField(b, j, tok);
        int64_t count;
        if (!parseUint(tok, kMaxFaceVerts, count)) r.fail("malformed face vertex count " + quote(tok));
        if (count < 3) r.fail("face has " + std::to_string(count) + " vertices, need at least 3");
        if (count > kMaxFaceVerts) r.fail("face has more than " + std::to_string(kMaxFaceVerts) + " vertices");
        if (int64_t(m.numTris()) + count - 2 > kMaxTriangles)
            r.fail("more than " + std::to_string(kMaxTriangles) + " triangles");
        Fan fan;
        for (int64_t c = 0; c < count; c++) {
            if (!nextField(b, j, tok))
                r.fail("face declares " + std::to_string(count) + " vertices but lists " + std::to_string(c));
            int64_t x;
            if (!parseUint(tok, kMaxVertices, x)) r.fail("malformed face vertex index " + quote(tok));
            if (x >= nv)
                r.fail("face vertex index " + std::string(tok) + " out of range (" + std::to_string(nv) +
                       " vertices)");
            fan.add(m.tris, x);
        }
        // Further fields (colors) are skipped.
    }
    return m;
}

// ---------------------------------------------------------------------------
// STL

constexpr std::size_t kStlHeader = 80;
constexpr std::size_t kStlFacet = 50;
constexpr int64_t kMaxFacets = std::min(kMaxTriangles, kMaxVertices / 3);

// isStlSpace reports white space in STL, line ends included.
inline bool isStlSpace(char c) { return c == '\n' || c == '\r' || isSpace(c); }

// equalFold reports whether w equals the lower-case keyword kw, ignoring
// ASCII case.
bool equalFold(std::string_view w, std::string_view kw) {
    if (w.size() != kw.size()) return false;
    for (std::size_t i = 0; i < w.size(); i++) {
        if (char(w[i] | 0x20) != kw[i]) return false;
    }
    return true;
}

// isAsciiStl applies the Go reader's rule to the first 512 bytes: ASCII if
// they hold no control byte but white space, start with the word "solid",
// and the first word of the next line is "facet" or "endsolid" (or cannot
// be seen).
bool isAsciiStl(std::string_view p) {
    p = p.substr(0, 512);
    for (char ch : p) {
        unsigned char c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && !isStlSpace(ch)) || c == 0x7f) return false;
    }
    std::size_t i = 0;
    while (i < p.size() && isStlSpace(p[i])) i++;
    if (p.size() - i < 5 || !equalFold(p.substr(i, 5), "solid")) return false;
    i += 5;
    if (i < p.size() && !isStlSpace(p[i])) return false;
    while (i < p.size() && p[i] != '\n' && p[i] != '\r') i++;  // the solid's name
    while (i < p.size() && isStlSpace(p[i])) i++;
    std::size_t j = i;
    while (j < p.size() && !isStlSpace(p[j])) j++;
    if (j == p.size()) return true;  // cut off or absent: keep ASCII
    return equalFold(p.substr(i, j - i), "facet") || equalFold(p.substr(i, j - i), "endsolid");
}

uint32_t le32(const unsigned char* b) {
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

Mesh readBinaryStl(const std::string& path, std::string_view data) {
    if (data.size() < kStlHeader + 4)
        failOffset(path, data.size(), "truncated binary header: " + std::to_string(data.size()) + " bytes, want 84");
    const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
    int64_t count = le32(bytes + kStlHeader);
    if (count > kMaxFacets) {
        std::string hint = equalFold(data.substr(0, 5), "solid")
                               ? " (the file starts with \"solid\": malformed ASCII STL?)"
                               : "";
        failOffset(path, kStlHeader,
                   "binary STL declares " + std::to_string(count) + " facets, more than the limit " +
                       std::to_string(kMaxFacets) + hint);
    }
    int64_t available = int64_t((data.size() - kStlHeader - 4) / kStlFacet);
    Mesh m;
    m.verts.reserve(std::size_t(9 * std::min(count, available)));
    m.tris.reserve(std::size_t(3 * std::min(count, available)));
    for (int64_t i = 0; i < count; i++) {
        std::size_t off = kStlHeader + 4 + std::size_t(i) * kStlFacet;
        if (i >= available)
            failOffset(path, data.size(),
                       "truncated: data ends after " + std::to_string(available) + " of " + std::to_string(count) +
                           " facets");
        const unsigned char* f = bytes + off + 12;  // skip the normal
        float c[9];
        for (int j = 0; j < 9; j++) {
            uint32_t u = le32(f + 4 * j);
            if ((u & 0x7f800000u) == 0x7f800000u)
                failOffset(path, off, "facet " + std::to_string(i) + ": non-finite vertex coordinate");
            std::memcpy(&c[j], &u, 4);
        }
        int32_t base = int32_t(m.numVerts());
        for (float x : c) m.verts.push_back(double(x));
        m.tris.insert(m.tris.end(), {base, base + 1, base + 2});
    }
    return m;  // bytes after the declared facets are ignored
}

// StlWords splits ASCII STL text into words, counting lines.
class StlWords {
public:
    StlWords(const std::string& path, std::string_view data) : path_(path), data_(data) {}

    bool next(std::string_view& w) {
        while (pos_ < data_.size() && isStlSpace(data_[pos_])) {
            if (data_[pos_] == '\n') line_++;
            pos_++;
        }
        if (pos_ >= data_.size()) return false;
        std::size_t start = pos_;
        while (pos_ < data_.size() && !isStlSpace(data_[pos_])) pos_++;
        w = data_.substr(start, pos_ - start);
        return true;
    }

    // expect returns the next word; the end of the input is an error that
    // says what was wanted.
    std::string_view expect(const std::string& want) {
        std::string_view w;
        if (!next(w)) {
            long line = line_;
            if (line > 1 && !data_.empty() && data_.back() == '\n') line--;
            failLine(path_, line, "unexpected end of input, want " + want);
        }
        return w;
    }

    void skipLine() {
        while (pos_ < data_.size() && data_[pos_] != '\n') pos_++;
        if (pos_ < data_.size()) {
            pos_++;
            line_++;
        }
    }

    [[noreturn]] void fail(const std::string& msg) const { failLine(path_, line_, msg); }

private:
    const std::string& path_;
    std::string_view data_;
    std::size_t pos_ = 0;
    long line_ = 1;
};

Mesh readAsciiStl(const std::string& path, std::string_view data) {
    Mesh m;
    StlWords s(path, data);
    std::string_view w;
    while (s.next(w)) {
        if (!equalFold(w, "solid"))
            s.fail("want \"solid\" or the end of the input after \"endsolid\", found " + quote(w));
        s.skipLine();
        for (;;) {
            w = s.expect("\"facet\" or \"endsolid\"");
            if (equalFold(w, "endsolid")) {
                s.skipLine();
                break;
            }
            if (!equalFold(w, "facet")) s.fail("want \"facet\" or \"endsolid\", found " + quote(w));
            if (int64_t(m.numTris()) >= kMaxFacets) s.fail("more than " + std::to_string(kMaxFacets) + " facets");
            w = s.expect("\"outer loop\"");
            if (equalFold(w, "normal")) {
                // The normal is not parsed: some writers put "nan" there.
                for (int k = 0; k < 4; k++) w = s.expect("\"outer loop\"");
            }
            if (!equalFold(w, "outer")) s.fail("want \"outer loop\", found " + quote(w));
            w = s.expect("\"loop\"");
            if (!equalFold(w, "loop")) s.fail("want \"loop\" after \"outer\", found " + quote(w));
            double tri[9];
            int n = 0;
            for (;;) {
                w = s.expect("\"vertex\" or \"endloop\"");
                if (equalFold(w, "endloop")) break;
                if (!equalFold(w, "vertex")) s.fail("want \"vertex\" or \"endloop\", found " + quote(w));
                if (n == 3) s.fail("facet with more than 3 vertices");
                for (int c = 0; c < 3; c++) {
                    w = s.expect("a vertex coordinate");
                    Num e = parseNumber(w, tri[3 * n + c]);
                    if (e == Num::malformed) s.fail("bad vertex coordinate " + quote(w));
                    if (e != Num::ok) s.fail("non-finite vertex coordinate " + quote(w));
                }
                n++;
            }
            if (n != 3) s.fail("facet with " + std::to_string(n) + " vertices, want 3");
            w = s.expect("\"endfacet\"");
            if (!equalFold(w, "endfacet")) s.fail("want \"endfacet\", found " + quote(w));
            int32_t base = int32_t(m.numVerts());
            m.verts.insert(m.verts.end(), tri, tri + 9);
            m.tris.insert(m.tris.end(), {base, base + 1, base + 2});
        }
    }
    return m;
}

Mesh readStl(const std::string& path, std::string_view data) {
    return isAsciiStl(data) ? readAsciiStl(path, data) : readBinaryStl(path, data);
}

std::string lowerExtension(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    std::size_t dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// ---------------------------------------------------------------------------
// Poses

// isPoseSeparator reports the bytes that separate the numbers of a pose.
inline bool isPoseSeparator(char c) { return c == ',' || c == '\n' || c == '\r' || isSpace(c); }

// isRotation reports whether R is orthonormal with determinant 1, within
// tol (the Go CLI's check, geom.Mat3.IsRotation(1e-6)).
bool isRotation(const double R[3][3], double tol) {
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double p = R[0][i] * R[0][j] + R[1][i] * R[1][j] + R[2][i] * R[2][j];  // (RᵀR)ij
            if (std::fabs(p - (i == j ? 1.0 : 0.0)) > tol) return false;
        }
    }
    double det = R[0][0] * (R[1][1] * R[2][2] - R[1][2] * R[2][1]) -
                 R[0][1] * (R[1][0] * R[2][2] - R[1][2] * R[2][0]) +
                 R[0][2] * (R[1][0] * R[2][1] - R[1][1] * R[2][0]);
    return std::fabs(det - 1) <= tol;
}

}  // namespace

Mesh readMesh(const std::string& path) {
    if (path.rfind("gen:", 0) == 0)
        fail(path, "generated models are not supported by collide-peers; write the mesh with `collide gen KIND -o FILE.obj`");
    std::string ext = lowerExtension(path);
    if (ext == ".ply")
        fail(path,
             "PLY is not supported by collide-peers; convert it to OBJ, OFF or STL first "
             "(e.g. with meshlabserver, Blender or assimp export)");
    if (ext != ".obj" && ext != ".off" && ext != ".stl")
        fail(path, "unknown mesh format (extension \"" + ext + "\"; known: .obj .off .stl)");
    std::string data = readFile(path);
    if (ext == ".obj") return readObj(path, data);
    if (ext == ".off") return readOff(path, data);
    return readStl(path, data);
}

std::vector<Pose> readPoses(const std::string& path) {
    std::string data = readFile(path);
    LineReader lr(data);
    std::vector<Pose> poses;
    std::string_view b;
    while (lr.next(b)) {
        long line = lr.line();
        b = cutComment(b);
        std::string_view fields[12];
        int n = 0;
        for (std::size_t i = 0;;) {
            while (i < b.size() && isPoseSeparator(b[i])) i++;
            if (i >= b.size()) break;
            std::size_t start = i;
            while (i < b.size() && !isPoseSeparator(b[i])) i++;
            if (n < 12) fields[n] = b.substr(start, i - start);
            n++;
        }
        if (n == 0) continue;  // blank or comment line
        if (n != 12)
            failLine(path, line,
                     "want 12 numbers (r00 r01 r02 r10 r11 r12 r20 r21 r22 tx ty tz), got " + std::to_string(n));
        double a[12];
        for (int k = 0; k < 12; k++) {
            Num e = parseNumber(fields[k], a[k]);
            if (e == Num::malformed)
                failLine(path, line, "number " + std::to_string(k + 1) + ": " + quote(fields[k]) + " is not a number");
            if (e != Num::ok)
                failLine(path, line, "number " + std::to_string(k + 1) + ": " + quote(fields[k]) + " is not finite");
        }
        Pose p;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) p.R[i][j] = a[3 * i + j];
            p.t[i] = a[9 + i];
        }
        if (!isRotation(p.R, 1e-6)) failLine(path, line, "pose rotation is not orthonormal with determinant 1");
        poses.push_back(p);
    }
    if (poses.empty()) fail(path, "no poses");
    return poses;
}

}  // namespace peers
