#pragma once
// What a trained ViT does, as pictures: where its [CLASS] token looks in each
// test image (attention rollout, 002 "What do ViTs learn: attention") with the
// true and the predicted class, and which classes it confuses.
#include <cstdint>
#include <string>
#include <vector>

#include "lectern/autograd/autograd.h"
#include "lectern/plot/figure.h"

namespace run {

struct RolloutExample {
    autograd::Tensor image;  // [H, W] pixels
    autograd::Tensor
        rollout;  // [N]: the [CLASS] row (or the rows' mean) over a sqrt(N) x sqrt(N) grid of patches, row by row
    std::string truth, predicted;
};

// Each image with its rollout over it: a patch's share of the [CLASS] row (of
// the mean of the rows, for a ViT that pools the mean: `row` names it) as a
// multiple of the uniform 1/N, on the image's own scale from 1 (dark: the
// patch gets no more than its even share) to the image's largest (the image
// shown bright), with a colour bar beside each image that decodes it (the
// colour a white pixel takes).
plot::Figure rollout_figure(const std::vector<RolloutExample>& examples, const std::string& row = "the [CLASS] row");

// The first `count` principal components of the patch-embedding filters
// (002 "What do ViTs learn: embedding layer"): E's D rows, each a P x P patch
// filter, centred; the eigenvectors of their covariance with the largest
// eigenvalues, each drawn as a P x P picture with its share of the variance.
plot::Figure embedding_components_figure(const autograd::Tensor& filters, std::int64_t patch, int count = 8);

// confusion[true][predicted] counts; each row drawn as shares of its class (rows sum to 1),
// each share written in its cell.
// `items` names what was classified, in the title ("images", "fortunes").
plot::Figure confusion_figure(const std::vector<std::vector<std::int64_t>>& confusion,
                              const std::vector<std::string>& classes, const std::string& items = "images");

}  // namespace run
