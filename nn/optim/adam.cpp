// placeholder: optim/adam
