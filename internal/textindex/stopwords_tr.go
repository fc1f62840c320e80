package textindex

// stopWordsTR are Turkish conjunctions, postpositions, pronouns (with
// their common case forms), question words and particles. The question
// particle is listed in all harmony forms (mı, mi, mu, mü and their
// personal endings) because it is written as a separate word.
const stopWordsTR = `
acaba ama ancak arasında artık aslında ayrıca az
bana bazı bazen belki ben bende benden beni benim beri bile bir biraz birçok birkaç biri birisi bize bizi bizim biz bu buna bunda bundan bunlar bunları bunların bunu bunun burada böyle bütün
çok çünkü
da daha dahi de değil diğer diye dolayı
en eğer
gibi göre
hakkında hangi hangisi hangisidir hangileri hatta hem henüz hep hepsi her herhangi hiç
için içinde içinden ile ise işte
kaç kaçta kaçıncı kadar ki kim kimdir kimdi kime kimi kimin kimse
lütfen
mı mi mu mü mıdır midir mudur müdür mıydı miydi muydu müydü mısın misin musun müsün mısınız misiniz musunuz müsünüz mıyım miyim muyum müyüm mıyız miyiz muyuz müyüz
nasıl ne neden nedir neydi nerede nereden nereye nerededir neler nelerdir neyi neye niçin niye
o olan olarak oldu olduğu olduğunu olur ona onda ondan onlar onlara onları onların onu onun öyle
sen sana seni senin siz size sizde sizden sizi sizin
şey şu şuna şunu
tane tüm
üzere
var vardır ve veya
ya yani yok zaten
merhaba selam
`
