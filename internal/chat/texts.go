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

// cacheOnlyNotice tells a widget visitor that only frequent questions are answered for now.
// It promises no human and no time beyond what is true: the budget resets at 00:00 UTC, a
// surge passes on its own.
func cacheOnlyNotice(lang, reason string) string {
	if reason == ModeReasonBudget {
		switch lang {
		case "tr":
			return "Bugün için yeni sorulara yanıt veremiyorum; sık sorulan sorulara yanıt vermeye devam ediyorum. Lütfen yarın tekrar deneyin."
		case "de":
			return "Neue Fragen kann ich heute nicht mehr beantworten; häufig gestellte Fragen beantworte ich weiterhin. Bitte versuchen Sie es morgen erneut."
		default:
			return "I can't answer new questions for the rest of today, but I can still answer frequently asked questions. Please try again tomorrow."
		}
	}
	switch lang {
	case "tr":
		return "Şu anda çok yoğunum ve yalnızca sık sorulan sorulara yanıt verebiliyorum. Lütfen birkaç dakika sonra tekrar deneyin."
	case "de":
		return "Gerade ist sehr viel los, daher beantworte ich nur häufig gestellte Fragen. Bitte versuchen Sie es in ein paar Minuten erneut."
	default:
		return "I'm very busy right now and can only answer frequently asked questions. Please try again in a few minutes."
	}
}
