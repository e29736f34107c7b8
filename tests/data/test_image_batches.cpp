// Image batches' position kept as a tensor (lectern/data/image_batches.h): saved mid-epoch
// and restored into other batches, they draw the same batches as those that never stopped.
#include <vector>

#include "check.h"
#include "lectern/data/image_batches.h"

using namespace autograd;

namespace {

// Seven 2 x 2 images, image i all i, labelled i.
data::ImageSet seven_images() {
    data::ImageSet s{Tensor::empty({7, 1, 2, 2}, Dtype::float32), Tensor::empty({7}, Dtype::int64)};
    for (std::int64_t i = 0; i < 7; ++i) {
        for (std::int64_t p = 0; p < 4; ++p) s.images.data<float>()[i * 4 + p] = static_cast<float>(i);
        s.labels.data<std::int64_t>()[i] = i;
    }
    return s;
}

// The labels and pixels of the next `epochs` epochs' batches, the current one first.
std::vector<double> draw(data::ImageBatches& batches, int epochs) {
    std::vector<double> seen;
    data::ImageBatch b;
    for (int e = 0; e < epochs; ++e) {
        while (batches.next(b)) {
            for (double v : b.labels.to_vector()) seen.push_back(v);
            for (double v : b.images.to_vector()) seen.push_back(v);
            seen.push_back(-1);  // a batch's end
        }
        batches.reset();
    }
    return seen;
}

}  // namespace

TEST_CASE("image batches restored from a state saved mid-epoch draw the batches of a run that never stopped",
          "[data]") {
    const data::ImageSet set = seven_images();
    data::ImageBatches batches(set, 3, 3.0, 2.0, true, 11);
    draw(batches, 1);  // an epoch in: the generator has moved on
    data::ImageBatch b;
    batches.next(b);
    const Tensor saved = batches.state();
    CHECK(saved.shape() == Shape{6 + 1 + 7});
    const std::vector<double> uninterrupted = draw(batches, 3);
    CHECK(saved.to_vector() != batches.state().to_vector());  // the state is a copy, not a view

    data::ImageBatches resumed(set, 3, 3.0, 2.0, true, 99);  // another seed: the state overrides it
    resumed.set_state(saved);
    CHECK(draw(resumed, 3) == uninterrupted);
}

TEST_CASE("image batches refuse a state that is not one of theirs", "[data][errors]") {
    const data::ImageSet set = seven_images();
    data::ImageBatches batches(set, 3, 3.0, 2.0, true, 11);
    const Tensor good = batches.state();
    CHECK_THROWS_WITH(batches.set_state(zeros({14})), Catch::Contains("int64 [14], got float32 [14]"));
    CHECK_THROWS_AS(batches.set_state(zeros({13}, Dtype::int64)), ValueError);  // of six images
    Tensor repeated = good.clone();
    repeated.data<std::int64_t>()[7] = repeated.data<std::int64_t>()[8];  // an image twice in the order
    CHECK_THROWS_WITH(batches.set_state(repeated), Catch::Contains("not an order of these 7 images"));
    Tensor past = good.clone();
    past.data<std::int64_t>()[6] = 8;
    CHECK_THROWS_WITH(batches.set_state(past), Catch::Contains("position 8 is outside [0, 7]"));
    batches.set_state(good);
}
