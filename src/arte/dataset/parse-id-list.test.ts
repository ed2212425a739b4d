import { describe, expect, it } from 'vitest'
import { parseIdList } from './parse-id-list.ts'

describe('parseIdList', () => {
  it('reads a JSON array', () => {
    expect(parseIdList('["<a@x>", "<b@x>"]')).toEqual(['<a@x>', '<b@x>'])
  })

  it('reads a Python list with single quotes', () => {
    expect(parseIdList("['<32299015.1075856739201.JavaMail.evans@thyme>', '<b@x>']")).toEqual(['<32299015.1075856739201.JavaMail.evans@thyme>', '<b@x>'])
  })

  it('reads mixed quotes, escapes and a trailing comma', () => {
    expect(parseIdList(`["<o'neil@x>", '<it\\'s@x>',]`)).toEqual(["<o'neil@x>", "<it's@x>"])
  })

  it('reads a NumPy array repr split over lines', () => {
    expect(parseIdList("['<a@x>' '<b@x>'\n '<c@x>']")).toEqual(['<a@x>', '<b@x>', '<c@x>'])
  })

  it('reads empty lists', () => {
    expect(parseIdList('[]')).toEqual([])
    expect(parseIdList(' [ ] ')).toEqual([])
  })

  it('rejects text that is not a list of strings', () => {
    for (const text of ['<a@x>', '[<a@x>]', "['a'", "['a' , , 'b']", "['a''b']", '[1, 2]', "[,'a']", '']) expect(parseIdList(text), text).toBeUndefined()
  })
})
