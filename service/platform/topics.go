package platform

// Event topics: what the outbox records. Webhook subscriptions pick from the first six
// (webhooks.Topics gives them the ids clients look them up by).
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
