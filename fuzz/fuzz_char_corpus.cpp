// libFuzzer target: any bytes as char_lm's --text, read as char_lm reads it:
// bounded, its alphabet found, encoded to ids; and as a checkpoint's saved
// alphabet. Findings as in fuzz_checkpoint.cpp.
#include "lectern/data/char_vocab.h"
#include "lectern/data/text_file.h"
#include "lectern/data/utf8.h"
#include "fuzz/fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = fuzz::write_scratch(data, size);
    fuzz::require_clean_rejection(path, [&] {
        try {
            const std::string bytes = data::read_text_file(path, 1 << 20);
            data::CharVocab vocab = data::CharVocab::of_utf8(bytes);
            data::TokenIds ids = vocab.encode_utf8_text(bytes);
            if (ids.size() > 0) vocab.decode({ids[0], ids[ids.size() - 1]});
            data::CharVocab::from_alphabet(data::decode_utf8(bytes));  // the same bytes as a saved alphabet
        } catch (const data::DatasetError& e) {
            throw data::DatasetError(path + ": " + e.what());  // as char_lm names its text
        }
    });
    return 0;
}
