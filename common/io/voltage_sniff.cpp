#include "io/voltage_sniff.hpp"

namespace rapt {

bool looks_like_guppi(std::string_view head) {
  if (head.size() < 80 || head[8] != '=' || head[0] == ' ') return false;
  for (size_t i = 0; i < 8; ++i) {
    const char c = head[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == ' '))
      return false;
  }
  return true;
}

bool looks_like_dada(std::string_view head) {
  const std::string_view text = head.substr(0, head.find('\0'));
  for (const char c : text)
    if ((c < 32 || c > 126) && c != '\n' && c != '\r' && c != '\t') return false;
  return text.find("HDR_SIZE") != std::string_view::npos;
}

namespace {

uint32_t word_at(std::string_view head, size_t byte) {
  const auto* b = reinterpret_cast<const unsigned char*>(head.data() + byte);
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

}  // namespace

uint64_t vdif_probe_bytes(std::string_view head) {
  return head.size() < 16 ? 0 : uint64_t(word_at(head, 8) & 0xFFFFFF) * 8 + 16;
}

bool vdif_header_plausible(std::string_view head) {
  if (head.size() < 32) return false;
  const uint32_t w0 = word_at(head, 0), w1 = word_at(head, 4), w2 = word_at(head, 8);
  const uint32_t w3 = word_at(head, 12);
  const uint64_t frame_bytes = uint64_t(w2 & 0xFFFFFF) * 8;
  const int version = int(w2 >> 29);
  const bool legacy = (w0 >> 30) & 1;
  const int bits = int((w3 >> 26) & 0x1F) + 1;
  if (version > 1 || frame_bytes <= uint64_t(legacy ? 16 : 32) || (w1 >> 30) != 0) return false;
  return bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16 || bits == 32;
}

bool looks_like_vdif(std::string_view head, std::optional<uint64_t> file_size) {
  if (!vdif_header_plausible(head)) return false;
  const uint32_t w1 = word_at(head, 4), w2 = word_at(head, 8);
  const uint64_t frame_bytes = uint64_t(w2 & 0xFFFFFF) * 8;
  if (file_size && *file_size % frame_bytes == 0) return true;
  if (frame_bytes + 16 > head.size()) return false;
  const uint32_t next_w1 = word_at(head, frame_bytes + 4), next_w2 = word_at(head, frame_bytes + 8);
  return next_w2 == w2 && (next_w1 >> 24) == (w1 >> 24);
}

}  // namespace rapt
