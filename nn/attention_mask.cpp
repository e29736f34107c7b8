// placeholder: attention_mask
