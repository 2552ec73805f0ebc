//===- TopologyIndex.cpp - a topology's library found without parsing -----===//

#include "qshape/ArtifactCache/TopologyIndex.h"

#include "qshape/Cache/CacheKey.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qshape::compile {

namespace {
/// What a byte can start, for the skeleton lexer: a table, because its
/// loops go a byte at a time.
enum CharClass : uint8_t { Other, Quote, Slash, IdStart, Sigil, Digit, Minus };
constexpr uint8_t kIdChar = 0x80; // may continue an identifier or a name

constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    uint8_t cls = alpha || c == '_'                                          ? IdStart
                  : digit                                                    ? Digit
                  : c == '"'                                                 ? Quote
                  : c == '/'                                                 ? Slash
                  : c == '-'                                                 ? Minus
                  : c == '%' || c == '@' || c == '#' || c == '!' || c == '^' ? Sigil
                                                                             : Other;
    bool id = alpha || digit || c == '_' || c == '$' || c == '.';
    t[c] = cls | (id ? kIdChar : 0);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = makeClasses();

/// The skeleton's lexer, one token at a time, and the hash of the pieces
/// between the literals it finds.
class SkeletonLexer {
public:
  explicit SkeletonLexer(llvm::StringRef text)
      : text(text), p(reinterpret_cast<const unsigned char *>(text.data())), n(text.size()) {}

  /// Lexes the token at `i` (a token start) and returns where the next one
  /// starts; past the end after an unterminated string or escape.
  size_t lexToken(size_t i);

  /// The skeleton, once every token up to the end has been lexed or hashed.
  SourceSkeleton finish() {
    endPiece(n);
    flush();
    skeleton.digest = cache::toHex(hash.final());
    return std::move(skeleton);
  }

  const unsigned char *bytes() const { return p; }
  size_t size() const { return n; }
  CharClass classAt(size_t i) const { return CharClass(kClasses[p[i]] & ~kIdChar); }
  bool isId(size_t i) const { return (kClasses[p[i]] & kIdChar) != 0; }

private:
  bool isDigit(size_t i) const { return i < n && classAt(i) == Digit; }
  size_t skipString(size_t i) const;

  // The text between two literals, comments left out (MLIR's lexer skips
  // them, so a comment, such as a generator's header, changes nothing),
  // hashed as it goes and followed by its length.
  void take(size_t end) {
    llvm::StringRef piece = text.slice(pieceStart, end);
    pieceLength += piece.size();
    if (piece.size() >= kDirectHash) {
      flush();
      hash.update(piece);
    } else {
      pending.append(piece.bytes_begin(), piece.bytes_end());
    }
  }
  void endPiece(size_t end) {
    take(end);
    uint8_t framed[8];
    llvm::support::endian::write64le(framed, pieceLength);
    pending.append(framed, framed + 8);
    pieceLength = 0;
    if (pending.size() >= kPendingLimit)
      flush();
  }
  // BLAKE3 hashes a long input many 1 KB chunks at once (SIMD), a short one
  // a 64-byte block at a time: the short pieces between literals (one a
  // line in a program of constants) are gathered and hashed together. The
  // digest is that of the same bytes in the same order.
  static constexpr size_t kDirectHash = 4096, kPendingLimit = size_t{64} * 1024;
  void flush() {
    hash.update(llvm::ArrayRef<uint8_t>(pending));
    pending.clear();
  }

  llvm::StringRef text;
  const unsigned char *p;
  size_t n;
  SourceSkeleton skeleton;
  llvm::BLAKE3 hash;
  llvm::SmallVector<uint8_t, 0> pending; // hashed at the next flush()
  size_t pieceStart = 0, pieceLength = 0;
};
} // namespace

/// A string from its opening quote at `i`: ends after the first quote that
/// no backslash escapes (a backslash takes the byte after it, whatever it
/// is). The next quote is found once and kept while the escapes before it
/// are skipped, so a long unterminated string stays linear.
size_t SkeletonLexer::skipString(size_t i) const {
  // Most strings are short (gate names): a few bytes one at a time first.
  for (size_t end = std::min(n, i + 16), k = i + 1; k < end; ++k) {
    if (p[k] == '"')
      return k + 1;
    if (p[k] == '\\')
      break;
  }
  size_t quote = 0;
  for (++i;;) {
    if (i >= n)
      return n + 1;
    if (quote < i) {
      const void *q = std::memchr(p + i, '"', n - i);
      quote = q ? size_t(static_cast<const unsigned char *>(q) - p) : n;
    }
    const void *escape = std::memchr(p + i, '\\', quote - i);
    if (!escape)
      return quote + 1;
    i = size_t(static_cast<const unsigned char *>(escape) - p) + 2;
  }
}

size_t SkeletonLexer::lexToken(size_t i) {
  switch (classAt(i)) {
  case Other:
    for (++i; i < n && classAt(i) == Other; ++i)
      ;
    return i;
  case Quote: // a string, escapes and all
    return skipString(i);
  case Slash:
    if (i + 1 < n && p[i + 1] == '/') {
      take(i);
      i = std::min(n, text.find('\n', i));
      pieceStart = i;
      return i;
    }
    return i + 1;
  case IdStart:
    for (++i; i < n && isId(i); ++i)
      ;
    return i;
  case Sigil:
    for (++i; i < n && (isId(i) || p[i] == '-'); ++i)
      ;
    return i;
  case Minus:
    if (!isDigit(i + 1))
      return i + 1;
    [[fallthrough]];
  case Digit: {
    size_t start = i;
    if (p[i] == '-')
      ++i;
    if (p[i] == '0' && i + 1 < n && p[i + 1] == 'x') {
      for (i += 2; i < n && llvm::isHexDigit(p[i]); ++i)
        ;
      return i;
    }
    while (isDigit(i))
      ++i;
    if (i >= n || p[i] != '.')
      return i; // an integer: part of the skeleton
    for (++i; isDigit(i); ++i)
      ;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
      size_t e = i + 1;
      if (e < n && (p[e] == '+' || p[e] == '-'))
        ++e;
      if (isDigit(e))
        for (i = e; isDigit(i); ++i)
          ;
    }
    endPiece(start);
    skeleton.literals.push_back({uint32_t(start), uint32_t(i - start)});
    pieceStart = i;
    return i;
  }
  }
  llvm_unreachable("every byte has a class");
}

/// Whether the byte at `j` can change the skeleton: a quote (a string may
/// hold "1.5"), a slash (a comment), or a '.' after a digit (every float
/// literal has one).
static bool mayMatter(const unsigned char *p, size_t j) {
  return p[j] == '"' || p[j] == '/' || (p[j] == '.' && j > 0 && p[j - 1] - '0' < 10u);
}

/// Finds the bytes that may matter, 64 at a time where SSE2 is there
/// (x86-64 always), one at a time elsewhere. Every string of a block that
/// has no backslash is skipped in the block (a quote opens a string outside
/// one, closes it inside), so that the gate names' strings, a stop every
/// ~60 bytes, cost no call to the lexer.
class StopFinder {
public:
  StopFinder(const unsigned char *p, size_t n) : p(p), n(n) {}

  /// The first byte at or after `from` (outside a string) that may matter
  /// and is not inside a string skipped here, or `n`.
  size_t next(size_t from) {
    size_t j = from;
    if (j == 0 && n > 0) {
      if (mayMatter(p, 0))
        return 0;
      j = 1; // so that p[j - 1] can be read a block at a time
    }
#if defined(__SSE2__)
    // Each block starts outside a string: a string still open at a block's
    // end is a stop.
    for (; j + 64 <= n; j += 64) {
      uint64_t quotes, escapes, others;
      if (!block64(j, quotes, escapes, others))
        continue;
      uint64_t stops;
      if (escapes) {
        stops = quotes | others; // the lexer skips the strings
      } else {
        uint64_t inside = prefixXor(quotes); // from an opening quote to its closing one
        stops = others & ~inside;
        if (inside >> 63)
          stops |= uint64_t(1) << (63 - llvm::countl_zero(quotes));
      }
      if (stops)
        return j + llvm::countr_zero(stops);
    }
#endif
    for (; j < n; ++j)
      if (mayMatter(p, j))
        return j;
    return n;
  }

private:
#if defined(__SSE2__)
  /// The quotes, backslashes, and slashes or '.'s after a digit of
  /// [k, k + 64), one bit a byte; false if there are none. k > 0.
  bool block64(size_t k, uint64_t &quotes, uint64_t &escapes, uint64_t &others) const {
    __m128i q[4], e[4], o[4], any = _mm_setzero_si128();
    for (size_t b = 0; b < 4; ++b) {
      const unsigned char *at = p + k + 16 * b;
      __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(at));
      __m128i before = _mm_loadu_si128(reinterpret_cast<const __m128i *>(at - 1));
      // '0'..'9' moved to the bottom of the signed range: one compare.
      __m128i digitBefore = _mm_cmpgt_epi8(_mm_set1_epi8(char(0x80 + 10)),
                                           _mm_add_epi8(before, _mm_set1_epi8(char(0x80 - '0'))));
      q[b] = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
      e[b] = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
      o[b] = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')),
                          _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')), digitBefore));
      any = _mm_or_si128(any, _mm_or_si128(q[b], _mm_or_si128(e[b], o[b])));
    }
    if (!_mm_movemask_epi8(any))
      return false;
    auto bits = [](const __m128i *m) {
      uint64_t out = 0;
      for (int b = 0; b < 4; ++b)
        out |= uint64_t(unsigned(_mm_movemask_epi8(m[b]))) << (16 * b);
      return out;
    };
    quotes = bits(q);
    escapes = bits(e);
    others = bits(o);
    return true;
  }

  /// Bit i set iff an odd number of bits of x are set in [0, i].
  static uint64_t prefixXor(uint64_t x) {
    for (int shift = 1; shift < 64; shift *= 2)
      x ^= x << shift;
    return x;
  }
#endif

  const unsigned char *p;
  size_t n;
};

// The lexer runs only around the bytes that may matter; everything between
// is hashed whole. `done` is always a token start of the lexer run from the
// beginning, outside any string, with every byte before it lexed. From
// there StopFinder finds `c`; [done, c) holds no slash outside a string,
// so no comment, and no '.' after a digit outside a string, so no float and
// no exponent. Outside strings and comments a quote always opens a string,
// so the strings StopFinder skipped are the lexer's. A quote or a slash at
// `c` starts a token (neither can continue one). A '.' at `c` is lexed from
// its token's start, found by walking back over identifier chars and '-'
// (never below `done`) to `s`. The byte before `s` then ends any token it
// is in: only a string (the byte is then its closing quote), an Other run
// or an exponent's '+' can hold it, an Other run lexes alike from any of
// its bytes, and an exponent needs a '.' in [done, c). The exception is a
// sigil, which starts a token whose name runs over identifier chars and '-'
// ("%a-1.5" is a name, not "-1.5"): `s` is then the sigil. Lexed from `s`
// until past `c`, the tokens are those lexed from the beginning, and where
// that stops is the next `done`. ('.' and '$' are Other but identifier
// chars: the walk treats them as the identifier and sigil loops do.)
SourceSkeleton scanSkeleton(llvm::StringRef text) {
  SkeletonLexer lexer(text);
  const unsigned char *p = lexer.bytes();
  const size_t n = lexer.size();
  StopFinder stops(p, n);
  size_t done = 0;
  for (size_t c; (c = stops.next(done)) < n;) {
    size_t s = c;
    if (p[c] == '.') {
      while (s > done && (lexer.isId(s - 1) || p[s - 1] == '-'))
        --s;
      if (s > done && lexer.classAt(s - 1) == Sigil)
        --s;
    }
    while (s <= c)
      s = lexer.lexToken(s);
    done = s;
  }
  return lexer.finish();
}

std::optional<double> literalValue(llvm::StringRef text, const SourceSkeleton::Literal &literal) {
  llvm::StringRef spelling = text.substr(literal.offset, literal.length);
  bool negative = spelling.consume_front("-");
  double value = 0;
  if (spelling.getAsDouble(value))
    return std::nullopt;
  return negative ? -value : value;
}

static bool sameBits(double a, double b) {
  uint64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

static std::string lineOf(llvm::StringRef text, size_t offset) {
  return "line " + std::to_string(1 + text.take_front(offset).count('\n'));
}

llvm::Expected<TopologyMap> mapLiterals(llvm::StringRef text, const SourceSkeleton &skeleton,
                                        llvm::ArrayRef<LiftedSource> sources,
                                        llvm::ArrayRef<double> values) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError("no topology index entry: " + why);
  };
  const auto &literals = skeleton.literals;
  TopologyMap map;
  map.numSlots = uint32_t(values.size());
  map.numLiterals = uint32_t(literals.size());
  std::vector<bool> literalClaimed(literals.size()), slotFilled(values.size());
  for (const LiftedSource &source : sources) {
    auto first = llvm::lower_bound(
        literals, source.opOffset,
        [](const SourceSkeleton::Literal &l, uint32_t offset) { return l.offset < offset; });
    size_t index = size_t(first - literals.begin());
    size_t used = source.splat ? 1 : source.count;
    if (source.count == 0 || index + used > literals.size())
      return fail("the f64 constant at " + lineOf(text, source.opOffset) +
                  " has no float literal of its own");
    // The literals must be the op's own: after "arith.constant", on its line.
    size_t end = literals[index + used - 1].offset + literals[index + used - 1].length;
    llvm::StringRef span = text.slice(source.opOffset, end);
    llvm::StringRef head = text.slice(source.opOffset, literals[index].offset);
    if (span.contains('\n') || !head.contains("arith.constant"))
      return fail("the f64 constant at " + lineOf(text, source.opOffset) +
                  " is not spelled by its own literals on its line");
    if (source.firstSlot + uint64_t(source.count) > values.size())
      return fail("a lifted constant names slots past the table");
    for (size_t k = 0; k < source.count; ++k) {
      size_t l = index + (source.splat ? 0 : k), slot = source.firstSlot + k;
      std::optional<double> value = literalValue(text, literals[l]);
      if (!value || !sameBits(*value, values[slot]))
        return fail("the literal at " + lineOf(text, literals[l].offset) +
                    " is not the value of the slot it spells");
      if (slotFilled[slot])
        return fail("slot " + llvm::Twine(slot) + " has two sources");
      slotFilled[slot] = true;
    }
    for (size_t l = index; l < index + used; ++l) {
      if (literalClaimed[l])
        return fail("the literal at " + lineOf(text, literals[l].offset) + " feeds two constants");
      literalClaimed[l] = true;
    }
    map.claims.push_back({uint32_t(index), source.firstSlot, source.count, source.splat});
  }
  for (size_t l = 0; l < literals.size(); ++l)
    if (!literalClaimed[l])
      return fail("the float literal at " + lineOf(text, literals[l].offset) +
                  " is not one lifted constant's own (merged, folded, or not an f64 "
                  "arith.constant)");
  for (size_t slot = 0; slot < values.size(); ++slot)
    if (!slotFilled[slot])
      return fail("slot " + llvm::Twine(slot) + " comes from no literal of the text");
  return map;
}

llvm::Expected<std::vector<double>> TopologyMap::readValues(llvm::StringRef text,
                                                            const SourceSkeleton &skeleton) const {
  if (skeleton.literals.size() != numLiterals)
    return llvm::createStringError("the program has " + llvm::Twine(skeleton.literals.size()) +
                                   " float literals, the topology " + llvm::Twine(numLiterals));
  std::vector<double> values(numSlots);
  for (const Claim &claim : claims) {
    for (uint32_t k = 0; k < claim.count; ++k) {
      size_t l = claim.literal + (claim.splat ? 0 : k);
      std::optional<double> value =
          l < skeleton.literals.size() ? literalValue(text, skeleton.literals[l]) : std::nullopt;
      if (!value || claim.firstSlot + k >= numSlots)
        return llvm::createStringError(
            "the float literal at " +
            lineOf(text, l < skeleton.literals.size() ? skeleton.literals[l].offset : 0) +
            " cannot be read");
      values[claim.firstSlot + k] = *value;
    }
  }
  return values;
}

static constexpr llvm::StringLiteral kMapHeader = "qshape-topology-map 1";

std::string TopologyMap::serialize() const {
  std::string out = (kMapHeader + "\nslots " + llvm::Twine(numSlots) + "\nliterals " +
                     llvm::Twine(numLiterals) + "\n")
                        .str();
  for (const Claim &c : claims)
    out += ("claim " + llvm::Twine(c.literal) + " " + llvm::Twine(c.firstSlot) + " " +
            llvm::Twine(c.count) + " " + (c.splat ? "splat" : "each") + "\n")
               .str();
  return out;
}

std::optional<TopologyMap> TopologyMap::parse(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (lines.size() < 3 || lines[0] != kMapHeader)
    return std::nullopt;
  TopologyMap map;
  llvm::StringRef slots = lines[1], literals = lines[2];
  if (!slots.consume_front("slots ") || slots.getAsInteger(10, map.numSlots) ||
      !literals.consume_front("literals ") || literals.getAsInteger(10, map.numLiterals))
    return std::nullopt;
  uint64_t covered = 0;
  for (llvm::StringRef line : llvm::drop_begin(lines, 3)) {
    llvm::SmallVector<llvm::StringRef, 5> f;
    line.split(f, ' ');
    Claim c;
    if (f.size() != 5 || f[0] != "claim" || f[1].getAsInteger(10, c.literal) ||
        f[2].getAsInteger(10, c.firstSlot) || f[3].getAsInteger(10, c.count) ||
        (f[4] != "splat" && f[4] != "each"))
      return std::nullopt;
    c.splat = f[4] == "splat";
    if (uint64_t(c.firstSlot) + c.count > map.numSlots ||
        uint64_t(c.literal) + (c.splat ? 1 : c.count) > map.numLiterals)
      return std::nullopt;
    covered += c.count;
    map.claims.push_back(c);
  }
  if (covered != map.numSlots)
    return std::nullopt;
  return map;
}

} // namespace qshape::compile
