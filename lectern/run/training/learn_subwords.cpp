#include "lectern/run/training/learn_subwords.h"

#include <unistd.h>

#include <algorithm>

#include "lectern/data/train_bpe.h"
#include "lectern/run/shell/console.h"
#include "lectern/run/shell/interruption.h"
#include "lectern/run/shell/progress_bar.h"

namespace run {

data::BytePairEncoding learn_subwords(std::string_view text, std::int64_t vocab_size, std::string_view flag,
                                      std::string_view what) {
    const std::int64_t wanted = std::max<std::int64_t>(vocab_size - 256, 1);
    ProgressBar bar(wanted, "merge");
    std::int64_t drawn = 0;  // merges when the bar was last drawn: at most once per hundredth of them
    data::BytePairEncoding bpe = data::train_bpe(text, vocab_size, [&](std::int64_t made, std::int64_t) {
        if (const int sig = stop_signal()) throw Interrupted(sig, stop_message(sig));
        if (made * 100 / wanted == drawn * 100 / wanted && made < wanted) return;
        if (!console_quiet()) bar.update(made, made - drawn, "learning merges");
        drawn = made;
    });
    const auto made = static_cast<std::int64_t>(bpe.merges().size());
    if (made > 0 && made < vocab_size - 256 && isatty(fileno(stdout))) say("\n");  // the bar's line stopped short
    say("learnt {} byte-pair merges from {} in {:.1f} s{}\n", made, what, bar.seconds(),
        made < vocab_size - 256
            ? fmt::format("; {} {} is more than the text gives: its pieces are all whole tokens, a vocabulary of {}",
                          flag, vocab_size, bpe.vocab_size())
            : "");
    return bpe;
}

}  // namespace run
