// placeholder: optim/optimizer
