package chat

// balanceNotice is the system message sent when the balance cannot cover an answer. It speaks
// to the visitor, who cannot top up, so it says no more than that the assistant is unavailable.
func balanceNotice(lang string) string {
	switch lang {
	case "tr":
		return "Hesap bakiyesi yetersiz olduğu için asistan şu anda yanıt veremiyor. Lütfen daha sonra tekrar deneyin."
	case "de":
		return "Der Assistent kann gerade nicht antworten, weil das Guthaben des Kontos nicht ausreicht. Bitte versuchen Sie es später erneut."
	default:
		return "The assistant cannot answer right now because the account balance is insufficient. Please try again later."
	}
}
