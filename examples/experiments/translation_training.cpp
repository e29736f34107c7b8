#include "examples/experiments/translation_training.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lectern/data/bleu.h"
#include "lectern/data/chrf.h"
#include "lectern/data/epoch_batches.h"
#include "lectern/data/repair_utf8.h"
#include "lectern/data/sword_module.h"
#include "lectern/data/train_bpe.h"
#include "examples/experiments/seq2seq_training.h"
#include "lectern/models/greedy_decode.h"
#include "lectern/models/transformer.h"
#include "lectern/nn/attention_mask.h"
#include "lectern/nn/loss.h"
#include "lectern/nn/lr_schedule.h"
#include "lectern/nn/optim/adam.h"

namespace run::experiments {

using namespace autograd;

namespace {

std::vector<data::TokenPair> tokenize(const std::vector<data::VersePair>& pairs, const data::TextTokens& bpe,
                                      std::int64_t context) {
    std::vector<data::TokenPair> out;
    for (const data::VersePair& p : pairs) {
        data::TokenPair e{bpe.encode(p.source), bpe.encode(p.target)};
        e.src.resize(std::min(e.src.size(), static_cast<std::size_t>(context)));
        e.tgt.resize(std::min(e.tgt.size(), static_cast<std::size_t>(context - 1)));  // <s> takes a place
        out.push_back(std::move(e));
    }
    return out;
}

Tensor log_probs(const models::Transformer& model, const data::Seq2SeqBatch& b, std::int64_t pad) {
    Tensor out = model.forward(b.src, b.tgt_in, nn::padding_mask(b.src, pad), models::target_mask(b.tgt_in, pad));
    return model.generator->forward(out);
}

// Greedy translations of the validation verses, in batches of 64, as text; and the references'
// negative log-likelihood per token under teacher forcing.
void evaluate(const models::Transformer& model, const TranslationData& d, const TranslationRun& run,
              TranslationResult& r) {
    NoGradGuard no_grad;
    nn::EvalGuard eval(model);
    const data::Seq2SeqSymbols symbols{.pad = d.pad(), .start = d.start(), .end = d.end()};
    std::vector<std::string> hyps(d.validation.size());
    double nll = 0, tokens = 0;
    for (std::size_t at = 0; at < d.validation.size(); at += 64) {
        std::vector<std::size_t> rows;
        for (std::size_t i = at; i < std::min(d.validation.size(), at + 64); ++i) rows.push_back(i);
        const data::Seq2SeqBatch b = data::seq2seq_batch(d.validation, rows, symbols);
        nll += nn::nll_loss(log_probs(model, b, d.pad()), b.tgt_out, d.pad()).item() * static_cast<double>(b.tokens);
        tokens += static_cast<double>(b.tokens);
        const models::Decoded out =
            models::greedy_decode(model, b.src, nn::padding_mask(b.src, d.pad()), run.context, d.start(), d.end());
        for (std::size_t k = 0; k < rows.size(); ++k) {
            std::vector<std::int64_t> ids;
            for (std::int64_t t = 1; t < out.lengths[k]; ++t) {
                const auto id = static_cast<std::int64_t>(out.tokens.at({static_cast<std::int64_t>(k), t}));
                if (id == d.end()) break;
                if (id < d.bpe.size()) ids.push_back(id);
            }
            hyps[rows[k]] =
                data::repair_utf8(d.bpe.decode(ids), [](unsigned char) { return std::string("\xEF\xBF\xBD"); });
        }
    }
    r.perplexity = std::exp(nll / tokens);
    r.bleu = data::corpus_bleu(hyps, d.validation_references).score;
    r.chrf = data::corpus_chrf(hyps, d.validation_references).score;
}

}  // namespace

TranslationData load_translation_data(const TranslationRun& run) {
    const data::VerseCorpus verses =
        data::pair_verses(data::read_sword_module("engKJV2006eb"), data::read_sword_module("engWEB2015eb"),
                          data::default_held_out_books());
    std::vector<data::VersePair> train;
    const auto all = static_cast<std::int64_t>(verses.train.size());
    const std::int64_t n = std::min(run.train_verses, all);
    for (std::int64_t i = 0; i < n; ++i) train.push_back(verses.train[static_cast<std::size_t>(i * all / n)]);
    std::string text;
    for (const data::VersePair& p : train) text += p.source + "\n" + p.target + "\n";
    TranslationData d;
    d.bpe = data::TextTokens::subwords(data::train_bpe(text, run.vocab));
    d.train = tokenize(train, d.bpe, run.context);
    d.validation = tokenize(verses.validation, d.bpe, run.context);
    for (const data::VersePair& p : verses.validation) d.validation_references.push_back(p.target);
    return d;
}

TranslationResult train_translation(const TranslationData& d, const TranslationRun& run) {
    auto model = models::make_transformer(translation_model(run, d.symbols()));
    nn::optim::Adam opt(model->parameters(), {.lr = 0, .beta1 = 0.9, .beta2 = 0.98, .eps = 1e-9});
    nn::WarmupSchedule schedule(run.d_model, run.warmup, run.lr_factor);
    nn::LabelSmoothingLoss criterion(d.symbols(), d.pad(), run.smoothing);
    const data::Seq2SeqSymbols symbols{.pad = d.pad(), .start = d.start(), .end = d.end()};
    TranslationResult r;
    const auto start = std::chrono::steady_clock::now();
    for (std::int64_t epoch = 1; epoch <= run.epochs; ++epoch)
        for (const std::vector<std::size_t>& rows : data::epoch_batches(d.train, run.batch, run.seed, epoch)) {
            const data::Seq2SeqBatch b = data::seq2seq_batch(d.train, rows, symbols);
            opt.zero_grad();
            criterion(log_probs(*model, b, d.pad()), b.tgt_out).backward();
            opt.set_lr(schedule.lr(++r.steps));
            opt.step();
        }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    evaluate(*model, d, run, r);
    return r;
}

models::TransformerConfig translation_model(const TranslationRun& run, std::int64_t symbols) {
    models::TransformerConfig c;
    c.src_vocab = c.tgt_vocab = symbols;
    c.share_embeddings = true;  // 001 "Embeddings and Softmax"
    c.n_layers = run.layers, c.d_model = run.d_model, c.heads = run.heads, c.d_ff = run.d_ff, c.dropout = run.dropout;
    c.max_len = std::max<std::int64_t>(run.context + 1, 64), c.seed = run.seed;
    return c;
}

run::MemoryEstimate translation_memory(const TranslationRun& run) {
    const std::int64_t symbols = run.vocab + 3;  // at most run.vocab BPE tokens, then pad, start and end
    return encoder_decoder_memory(translation_model(run, symbols), symbols, run.context + 1, run.batch);
}

}  // namespace run::experiments
