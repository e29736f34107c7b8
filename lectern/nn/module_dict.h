#pragma once
// nn::ModuleDict: submodules by name, in insertion order, as torch.nn.ModuleDict. Each is
// registered under its key, so parameters(), named_parameters() ("heads.cls.weight") and
// state_dict() see it, and to(), train() and eval() reach it.
//
//   nn::ModuleDict heads({{"cls", std::make_shared<nn::Linear>(64, 10)},
//                         {"box", std::make_shared<nn::Linear>(64, 4)}});
//   Tensor logits = heads.at<nn::Linear>("cls").forward(h);
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lectern/nn/module.h"

namespace nn {

class ModuleDict : public Module {
public:
    using Item = std::pair<std::string, std::shared_ptr<Module>>;

    ModuleDict() = default;
    explicit ModuleDict(const std::vector<Item>& items);

    // Adds m under `name` after the others. A name taken already, empty or with a '.' is a
    // ValueError (register_module's): unlike PyTorch's d[name] = m, a key is not replaced,
    // since the old module's parameters may sit in an optimizer already.
    template <class M>
    std::shared_ptr<M> insert(std::string name, std::shared_ptr<M> m) {
        std::shared_ptr<M> added = register_module(name, std::move(m));
        items_.emplace_back(std::move(name), added);
        return added;
    }

    bool contains(const std::string& name) const;
    std::size_t size() const { return items_.size(); }
    std::vector<std::string> keys() const;  // in insertion order
    // The module under `name`; IndexError naming the keys there are when it is absent.
    Module& operator[](const std::string& name) const;
    // The same, as its own type; ValueError when it is of another.
    template <class M>
    M& at(const std::string& name) const {
        M* m = dynamic_cast<M*>(&(*this)[name]);
        if (!m) throw autograd::ValueError("ModuleDict: the module '" + name + "' is not of the type asked for");
        return *m;
    }
    auto begin() const { return items_.begin(); }  // (name, module) pairs in insertion order
    auto end() const { return items_.end(); }

private:
    std::vector<Item> items_;
};

}  // namespace nn
