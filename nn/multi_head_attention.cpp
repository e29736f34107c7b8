// placeholder: multi_head_attention
