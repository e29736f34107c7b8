// placeholder: feed_forward
