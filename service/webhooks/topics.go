package webhooks

// Event topics, with the ids clients look them up by.
const (
	TopicOrderProcessed  = "order/processed"
	TopicOrderCreated    = "order/created"
	TopicOrderFulfilled  = "order/fulfilled"
	TopicOrderAbandoned  = "order/abandoned"
	TopicOrderFailed     = "order/failed"
	TopicGiftCardCreated = "gift_card/created"
	// TopicConnectorRestock is not a webhook topic: it records returned stock for the platform
	// connector to push.
	TopicConnectorRestock = "connector/restock"
)
