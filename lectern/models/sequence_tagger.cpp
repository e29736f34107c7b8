#include "lectern/models/sequence_tagger.h"

#include <algorithm>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "lectern/nn/attention_mask.h"

namespace models {

using namespace autograd;

namespace {

// The N convolutions' dilations r_l (k^l dilated, else 1) and their receptive field less one,
// sum (k - 1) r_l; false where one of them does not fit in int64.
bool conv_sizes(std::int64_t kernel, bool dilated, std::int64_t layers, std::vector<std::int64_t>& dilations,
                std::int64_t& field) {
    dilations.clear(), field = 0;
    std::int64_t r = 1, span = 0;
    for (std::int64_t l = 0; l < layers; ++l) {
        if (l > 0 && dilated && __builtin_mul_overflow(r, kernel, &r)) return false;
        if (__builtin_mul_overflow(kernel - 1, r, &span) || __builtin_add_overflow(field, span, &field)) return false;
        dilations.push_back(r);
    }
    return true;
}

std::vector<std::int64_t> checked_dilations(const SequenceTaggerConfig& c, std::int64_t& field) {
    std::vector<std::int64_t> dilations;
    if (!conv_sizes(c.kernel, c.dilated, c.n_layers, dilations, field))
        throw ValueError(
            fmt::format("SequenceTagger: {} {}convolutional layers of kernel {} reach further back than "
                        "int64 counts; at most {} fit",
                        c.n_layers, c.dilated ? "dilated " : "", c.kernel, max_conv_layers(c.kernel, c.dilated)));
    return dilations;
}

}  // namespace

std::int64_t max_conv_layers(std::int64_t kernel, bool dilated) {
    if (!dilated || kernel <= 1)
        return std::numeric_limits<std::int64_t>::max() / std::max<std::int64_t>(kernel - 1, 1);
    std::vector<std::int64_t> dilations;
    std::int64_t layers = 0, field = 0;
    while (conv_sizes(kernel, true, layers + 1, dilations, field)) ++layers;
    return layers;
}

std::string name_of(SequenceLayer layer) {
    switch (layer) {
        case SequenceLayer::self_attention:
            return "self-attention";
        case SequenceLayer::recurrent:
            return "recurrent";
        case SequenceLayer::convolutional:
            return "convolutional";
    }
    return "?";
}

SequenceTagger::SequenceTagger(const SequenceTaggerConfig& c) : config(c) {
    if (c.vocab <= 1 || c.d_model <= 0 || c.n_layers <= 0 || c.kernel <= 0 || c.max_len <= 0)
        throw ValueError(
            fmt::format("SequenceTagger: needs vocab > 1 and positive d_model, n_layers, kernel and "
                        "max_len, got {}, {}, {}, {}, {}",
                        c.vocab, c.d_model, c.n_layers, c.kernel, c.max_len));
    Generator gen(c.seed);
    embed = register_module("embed", std::make_shared<nn::Embedding>(c.vocab, c.d_model, false, gen));
    switch (c.layer) {
        case SequenceLayer::self_attention: {
            pos = register_module("pos", std::make_shared<nn::SinusoidalPositionalEncoding>(c.d_model, 0.0, c.max_len));
            if (c.attention.kind != nn::AttentionPattern::Kind::full && !c.bidirectional)
                throw ValueError("SequenceTagger: a local attention pattern reads both directions; set bidirectional");
            encoder = register_module("encoder", std::make_shared<Encoder>(c.n_layers, c.block_config(), gen));
            break;
        }
        case SequenceLayer::recurrent:
            grus = register_module("grus", std::make_shared<nn::ModuleList<nn::GRU>>());
            for (std::int64_t l = 0; l < c.n_layers; ++l)
                grus->push_back(std::make_shared<nn::GRU>(c.d_model, c.d_model, gen));
            break;
        case SequenceLayer::convolutional: {
            convs = register_module("convs", std::make_shared<nn::ModuleList<nn::Conv1d>>());
            conv_norms = register_module("conv_norms", std::make_shared<nn::ModuleList<nn::LayerNorm>>());
            std::int64_t field = 0;
            for (std::int64_t dilation : checked_dilations(c, field)) {
                convs->push_back(
                    std::make_shared<nn::Conv1d>(c.d_model, c.d_model, c.kernel, dilation, ConvPadding::causal, gen));
                conv_norms->push_back(std::make_shared<nn::LayerNorm>(c.d_model));
            }
            conv_norms->push_back(std::make_shared<nn::LayerNorm>(c.d_model));
            break;
        }
    }
    head = register_module("head", std::make_shared<nn::Linear>(c.d_model, c.vocab, true, gen));
}

Tensor SequenceTagger::forward(const Tensor& ids) const {
    check_dtype("SequenceTagger", ids, Dtype::int64, "ids");
    if (ids.dim() != 2)
        throw ShapeError(fmt::format("SequenceTagger: ids must be [B, T], got {}", shape_str(ids.shape())));
    if (config.layer == SequenceLayer::recurrent) {
        // Step by step from the embedding to the head, so that no step's backward touches the
        // whole sequence (nn::GRU::forward_steps): O(n d^2) in both directions.
        std::vector<Tensor> hs;
        for (std::int64_t t = 0; t < ids.size(1); ++t) hs.push_back((*embed)(select(ids, 1, t)));
        for (std::size_t l = 0; l < grus->size(); ++l) hs = (*grus)[l].forward_steps(hs);
        for (Tensor& h : hs) h = unsqueeze(h, 1);
        return (*head)(concat(hs, 1));
    }
    Tensor h = (*embed)(ids);
    switch (config.layer) {
        case SequenceLayer::self_attention:
            h = encoder->forward((*pos)(h), config.bidirectional ? Tensor() : nn::subsequent_mask(ids.size(1)));
            break;
        case SequenceLayer::recurrent:
            break;  // above
        case SequenceLayer::convolutional:
            for (std::size_t l = 0; l < convs->size(); ++l) h = h + relu((*convs)[l]((*conv_norms)[l](h)));
            h = (*conv_norms)[convs->size()](h);
            break;
    }
    return (*head)(h);
}

std::int64_t reach(const SequenceTaggerConfig& c, std::int64_t T) {
    if (c.layer != SequenceLayer::convolutional) return T - 1;
    std::int64_t field = 0;
    checked_dilations(c, field);
    return std::min(field, T - 1);
}

double SequenceTaggerConfig::parameter_count() const {
    const auto V = static_cast<double>(vocab), D = static_cast<double>(d_model), N = static_cast<double>(n_layers);
    double body = 0;
    switch (layer) {
        case SequenceLayer::self_attention:
            body = encoder_parameter_count(n_layers, block_config());
            break;
        case SequenceLayer::recurrent:
            body = N * 2 * (3 * D * D + 3 * D);
            break;                          // W_ih, W_hh [3d, d] and biases
        case SequenceLayer::convolutional:  // each [d, k, d] and a bias; N + 1 norms
            body = N * (D * static_cast<double>(kernel) * D + D) + (N + 1) * block_config().norm_parameters();
            break;
    }
    return V * D + body + D * V + V;
}

}  // namespace models
