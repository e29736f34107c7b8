#pragma once
// A verse-aligned parallel corpus: two translations of the Bible paired by
// verse reference (the source verse Gen.1.1 with the target verse Gen.1.1),
// held out by whole books. Whole books, not random verses, because the Bible
// repeats itself (the same genealogy in Genesis and Chronicles, one story in
// three gospels): a random split would put a near-copy of many test verses in
// training, and BLEU would measure recall of the training set.
//
// Nothing here depends on SWORD: the verses come in as plain records
// (data/sword_module.h reads them from Debian's modules).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace data {

// One verse of one translation: its reference ("Gen.1.1"), its book's OSIS
// name ("Gen") and its text.
struct Verse {
    std::string ref, book, text;
};

struct VersePair {
    std::string ref, book, source, target;
};

// Which books are held out, by OSIS name.
struct HeldOutBooks {
    std::vector<std::string> validation, test;
};

// Lectern's split: validation Ruth and Philippians (189 verses in the KJV),
// test Esther, Jonah and James (323). Each is told once in the Bible: no other
// book retells Esther, Jonah or James, as Chronicles retells Kings or Luke
// retells Mark. (Ruth's last five verses, a genealogy, recur in 1 Chronicles 2;
// they are in validation, not test.)
HeldOutBooks default_held_out_books();

// A verse's text as the model sees it: SWORD's plain text with its paragraph
// signs (¶, U+00B6) removed, and the markup SWORD's plain filter lets through
// (a Strong's number such as "<H0398>", 3,609 of them in the RV1909; a USFM
// marker such as "\nd", in 28 verses of the KJV) removed; every run of
// whitespace made one space, trimmed at both ends. The markup goes with the
// whitespace before it ("vida <H2416>, toda" -> "vida, toda"), since SWORD
// puts it after a word. An empty result means the translation has no text
// there (a verse it merges into its neighbour, or leaves out).
std::string plain_verse_text(std::string_view text);

struct VerseCorpus {
    std::vector<VersePair> train, validation, test;  // in canonical order of the source
    std::int64_t source_verses = 0, target_verses = 0;
    std::int64_t unpaired = 0;       // source verses with no target verse of the same reference
    std::int64_t empty_skipped = 0;  // pairs left out because a side is empty after plain_verse_text
};

// Pairs every source verse with the target verse of the same reference
// (texts through plain_verse_text), skips and counts the pairs with an empty
// side, and sends each pair to validation, test or training by its book.
// DatasetError if a held-out book has no pairs (a misspelt name), if a book is
// both validation and test, or if nothing is left to train on.
VerseCorpus pair_verses(const std::vector<Verse>& source, const std::vector<Verse>& target,
                        const HeldOutBooks& held_out);

}  // namespace data
