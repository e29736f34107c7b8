#pragma once
// The encoder-decoder Transformer trained to translate Bible verses, King James Version ->
// World English Bible (SWORD modules, as examples/translate.cpp reads them), as translate
// trains it: byte-level BPE shared by both sides, Adam (beta2 0.98, eps 1e-9), 001's warm-up
// schedule, label smoothing of the training loss; scored on the validation books (Ruth,
// Philippians) by corpus BLEU and chrF of greedy translations, and by the perplexity of the
// references under teacher forcing, without smoothing. What label-smoothing compares runs of.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/data/seq2seq_batch.h"
#include "lectern/data/text_tokens.h"
#include "lectern/data/verse_corpus.h"
#include "lectern/models/transformer.h"
#include "lectern/run/shell/memory_budget.h"

namespace run::experiments {

struct TranslationRun {
    std::int64_t train_verses = 4000;  // spread over the Bible (every k-th training verse)
    std::int64_t vocab = 600;          // BPE tokens, the 256 bytes included
    std::int64_t context = 64;         // longest source and target in subwords (longer ones are cut)
    std::int64_t layers = 2, d_model = 64, heads = 4, d_ff = 256;
    double dropout = 0.1;
    std::int64_t batch = 32, epochs = 8, warmup = 150;
    double lr_factor = 2.0;  // lr = f d^-0.5 min(s^-0.5, s w^-1.5)
    double smoothing = 0.0;  // eps of nn::LabelSmoothingLoss
    std::uint64_t seed = 1;  // of the initialisation, dropout and batch order
};

// The verses tokenized: shared by every run of one (train_verses, vocab, context).
struct TranslationData {
    data::TextTokens bpe;
    std::vector<data::TokenPair> train, validation;
    std::vector<std::string> validation_references;
    std::int64_t pad() const { return bpe.size(); }
    std::int64_t start() const { return bpe.size() + 1; }
    std::int64_t end() const { return bpe.size() + 2; }
    std::int64_t symbols() const { return bpe.size() + 3; }
};

// Reads the modules (IoError if they are not installed) and learns the BPE from the training verses.
TranslationData load_translation_data(const TranslationRun& run);

struct TranslationResult {
    double bleu = 0, chrf = 0;  // validation, greedy
    double perplexity = 0;      // validation, exp(nll per target token), teacher forcing, no smoothing
    std::int64_t steps = 0;
    double seconds = 0;  // of training, wall clock
};

TranslationResult train_translation(const TranslationData& data, const TranslationRun& run);

// The model train_translation builds over `symbols` (TranslationData::symbols()).
models::TransformerConfig translation_model(const TranslationRun& run, std::int64_t symbols);

// What train_translation's step holds (seq2seq_training.h's encoder_decoder_memory), before
// the BPE is learned: at most run.vocab tokens, sequences of context + 1.
run::MemoryEstimate translation_memory(const TranslationRun& run);

}  // namespace run::experiments
