// placeholder: optim/sgd
