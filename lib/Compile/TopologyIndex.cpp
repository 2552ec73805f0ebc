//===- TopologyIndex.cpp - a topology's library found without parsing -----===//

#include "qshape/Compile/TopologyIndex.h"

#include "qshape/Cache/CacheKey.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace qshape::compile {

namespace {
/// What a byte can start, for scanSkeleton's loop: a table, because the
/// scan is most of a topology hit (one pass over the whole text).
enum CharClass : uint8_t { Other, Quote, Slash, IdStart, Sigil, Digit, Minus };
constexpr uint8_t kIdChar = 0x80; // may continue an identifier or a name

constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    uint8_t cls = alpha || c == '_' ? IdStart
                  : digit           ? Digit
                  : c == '"'        ? Quote
                  : c == '/'        ? Slash
                  : c == '-'        ? Minus
                  : c == '%' || c == '@' || c == '#' || c == '!' || c == '^' ? Sigil
                                                                             : Other;
    bool id = alpha || digit || c == '_' || c == '$' || c == '.';
    t[c] = cls | (id ? kIdChar : 0);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = makeClasses();
} // namespace

SourceSkeleton scanSkeleton(llvm::StringRef text) {
  SourceSkeleton s;
  llvm::BLAKE3 hash;
  // The text between two literals, comments left out (MLIR's lexer skips
  // them, so a comment, such as a generator's header, changes nothing),
  // hashed as it goes and followed by its length.
  size_t pieceStart = 0, pieceLength = 0;
  auto take = [&](size_t end) {
    hash.update(text.slice(pieceStart, end));
    pieceLength += end - pieceStart;
  };
  auto endPiece = [&](size_t end) {
    take(end);
    uint8_t framed[8];
    llvm::support::endian::write64le(framed, pieceLength);
    hash.update(llvm::ArrayRef<uint8_t>(framed, 8));
    pieceLength = 0;
  };
  const unsigned char *p = reinterpret_cast<const unsigned char *>(text.data());
  const size_t n = text.size();
  auto classAt = [&](size_t i) { return kClasses[p[i]] & ~kIdChar; };
  auto isId = [&](size_t i) { return (kClasses[p[i]] & kIdChar) != 0; };
  auto isDigit = [&](size_t i) { return i < n && classAt(i) == Digit; };
  size_t i = 0;
  while (i < n) {
    switch (classAt(i)) {
    case Other:
      for (++i; i < n && classAt(i) == Other; ++i)
        ;
      break;
    case Quote: { // a string, escapes and all
      for (++i; i < n && p[i] != '"'; ++i)
        if (p[i] == '\\')
          ++i;
      ++i;
      break;
    }
    case Slash:
      if (i + 1 < n && p[i + 1] == '/') {
        take(i);
        i = std::min(n, text.find('\n', i));
        pieceStart = i;
      } else {
        ++i;
      }
      break;
    case IdStart:
      for (++i; i < n && isId(i); ++i)
        ;
      break;
    case Sigil:
      for (++i; i < n && (isId(i) || p[i] == '-'); ++i)
        ;
      break;
    case Minus:
      if (!isDigit(i + 1)) {
        ++i;
        break;
      }
      [[fallthrough]];
    case Digit: {
      size_t start = i;
      if (p[i] == '-')
        ++i;
      if (p[i] == '0' && i + 1 < n && p[i + 1] == 'x') {
        for (i += 2; i < n && llvm::isHexDigit(p[i]); ++i)
          ;
        break;
      }
      while (isDigit(i))
        ++i;
      if (i >= n || p[i] != '.')
        break; // an integer: part of the skeleton
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
      s.literals.push_back({uint32_t(start), uint32_t(i - start)});
      pieceStart = i;
      break;
    }
    }
  }
  if (i > n) // an unterminated string or escape at the end
    i = n;
  endPiece(std::min(i, n));
  s.digest = cache::toHex(hash.final());
  return s;
}

/// The value MLIR's parser gives the literal (Token::getFloatingPointValue
/// reads the digits with StringRef::getAsDouble and negates after).
static std::optional<double> literalValue(llvm::StringRef text,
                                          const SourceSkeleton::Literal &literal) {
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
    auto first = llvm::lower_bound(literals, source.opOffset,
                                   [](const SourceSkeleton::Literal &l, uint32_t offset) {
                                     return l.offset < offset;
                                   });
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
        return fail("the literal at " + lineOf(text, literals[l].offset) +
                    " feeds two constants");
      literalClaimed[l] = true;
    }
    map.claims.push_back(
        {uint32_t(index), source.firstSlot, source.count, source.splat});
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
        return llvm::createStringError("the float literal at " +
                                       lineOf(text, l < skeleton.literals.size()
                                                        ? skeleton.literals[l].offset
                                                        : 0) +
                                       " cannot be read");
      values[claim.firstSlot + k] = *value;
    }
  }
  return values;
}

static constexpr llvm::StringLiteral MapHeader = "qshape-topology-map 1";

std::string TopologyMap::serialize() const {
  std::string out = (MapHeader + "\nslots " + llvm::Twine(numSlots) + "\nliterals " +
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
  if (lines.size() < 3 || lines[0] != MapHeader)
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
