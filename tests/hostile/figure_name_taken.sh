#!/usr/bin/env bash
# figure_name_taken.sh EXPECT_ERROR COPY_TASK
# A folder named loss_curve.png inside --figures was found only
# when the figure was written, after training. It is refused with the flags.
set -uo pipefail
expect_error=$1 copy_task=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/figures/loss_curve.png"
"$expect_error" 2 "--figures: $dir/figures/loss_curve.png is not a file" --quiet -- "$copy_task" --figures "$dir/figures"
