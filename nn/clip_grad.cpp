// placeholder: clip_grad
