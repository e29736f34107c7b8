// A first look at Lectern's autograd, in the PyTorch habits: fit y = 3x + 2
// with two leaf tensors, backward() and a hand-written gradient step.
//   ./build/examples/autograd_tour
//   ./build/examples/autograd_tour --dot graph.dot   also draws the graph of one step
//   ./build/examples/autograd_tour --dot graph.dot --values   with the norm of every value and gradient
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include <fmt/format.h>

#include "lectern/autograd/autograd.h"
#include "lectern/run/flags/flags.h"
#include "lectern/run/shell/output_files.h"

using namespace autograd;

namespace {

// Writes the graph as DOT and, where Graphviz's `dot` is installed, renders it next to it as PNG.
// With `values`, every node shows the norms of its value and gradient, which runs loss.backward():
// returns whether it did.
bool draw_graph(const Tensor& loss, const DotNames& names, const std::string& path, bool values) {
    run::write_output(path, values ? to_dot_with_norms(loss, names) : to_dot(loss, names));
    fmt::print("graph of one step written to {}\n", path);
    const std::string png = path + ".png";
    pid_t pid = fork();
    if (pid == 0) {
        execlp("dot", "dot", "-Tpng", path.c_str(), "-o", png.c_str(), static_cast<char*>(nullptr));
        _exit(127);  // no dot on PATH
    }
    int status = 0;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        fmt::print("rendered to {}\n", png);
    else fmt::print("to render it, install Graphviz (apt-get install graphviz): dot -Tpng {} -o {}\n", path, png);
    return values;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"A first look at the autograd API: fits y = w x + b by gradient descent with backward()."};
    std::string dot;
    bool values = false;
    app.add_option("--dot", dot,
                   "write the autograd graph of one step as Graphviz DOT here (and PNG beside it, with graphviz)")
        ->check(run::path_value());
    app.add_flag("--values", values,
                 "label the graph's nodes with the norms of their values and gradients (runs that "
                 "step's backward)");
    if (int status = run::parse_flags(app, argc, argv, "autograd_tour",
                                      [&] {
                                          run::check_output_file("--dot", dot);
                                          if (!dot.empty()) run::check_output_file("--dot", dot + ".png");
                                      });
        status >= 0)
        return status;

    Generator gen(0);
    Tensor x = rand({64, 1}, gen);  // inputs in [0, 1)
    Tensor y = x * 3.0 + 2.0 + randn({64, 1}, gen) * 0.01;

    Tensor w = zeros({1, 1}).requires_grad_();
    Tensor b = zeros({1}).requires_grad_();
    fmt::print("fitting y = w x + b to 64 points of y = 3x + 2 (plus noise), lr 0.5\n");
    for (int step = 1; step <= 200; ++step) {
        Tensor pred = matmul(x, w) + b;          // [64, 1]
        Tensor loss = mean(pow(pred - y, 2.0));  // mean squared error
        // The graph is drawn before backward(), which frees it; with --values the drawing runs backward().
        const bool drawn_through_backward =
            step == 1 && !dot.empty() && draw_graph(loss, {{x, "x"}, {y, "y"}, {w, "w"}, {b, "b"}}, dot, values);
        if (!drawn_through_backward) loss.backward();  // fills w.grad() and b.grad()
        {
            NoGradGuard no_grad;  // the update is not part of the graph
            w.add_(w.grad(), -0.5);
            b.add_(b.grad(), -0.5);
        }
        w.zero_grad();
        b.zero_grad();
        if (step % 40 == 0)
            fmt::print("step {:3}  loss {:.6f}  w {:.4f}  b {:.4f}\n", step, loss.item(), w.item(), b.item());
    }
    fmt::print("graph nodes alive after training: {}\n", live_node_count());
    return 0;
}
