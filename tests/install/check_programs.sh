# Sourced by the install tests: check_programs BUILD_DIR ROUTE runs the outside project's
# three programs (project/) from BUILD_DIR and fails, through the caller's fail(), unless each
# says what it learned. Uses the caller's $work for the checkpoint it writes.
check_programs() {  # BUILD_DIR ROUTE
  local out
  out=$("$1/spiral_mlp" "$work/spiral.ckpt") || fail "$2: spiral_mlp failed: $out"
  echo "$out" | sed "s|^|$2: |"
  local accuracy
  accuracy=$(echo "$out" | sed -n 's/^spiral: training accuracy \([0-9.]*\)$/\1/p')
  awk -v a="$accuracy" 'BEGIN { exit !(a >= 0.95) }' || fail "$2: the spiral MLP reached accuracy '$accuracy', not 0.95"
  echo "$out" | grep -q 'logits differ by at most 0$' || fail "$2: the reloaded MLP differs from the saved one"
  out=$("$1/swish_op") || fail "$2: swish_op failed: $out"
  echo "$out" | sed "s|^|$2: |"
  echo "$out" | grep -q '^swish: gradcheck passed' || fail "$2: swish's gradient check did not pass"
  echo "$out" | grep -q '^swish with a wrong backward: gradcheck failed' || fail "$2: a wrong backward passed gradcheck"
  out=$("$1/tiny_gpt") || fail "$2: tiny_gpt failed: $out"
  echo "$out" | sed "s|^|$2: |"
  echo "$out" | grep -q '3 4 5 continues as 6 7 0 1 2 3$' || fail "$2: the tiny GPT did not learn its sequence"
}
