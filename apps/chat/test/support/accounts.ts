import type { FakeProvider } from './fake-provider.js';

/** Typical accounts on the fake provider; each returns the login request's access token. */
export const accounts = {
  twitter(fake: FakeProvider, id = '783214', screenName = 'Ada_Lovelace') {
    const token = `${id}-tw-token`;
    fake.twitter.set(token, {
      token,
      tokenSecret: `${id}-tw-secret`,
      user: {
        id_str: id,
        name: 'Ada Lovelace',
        screen_name: screenName,
        email: 'ada@example.com',
        profile_image_url_https: 'https://pbs.example.com/ada_normal.jpg',
        utc_offset: -18000,
      },
    });
    return { accessToken: token, accessTokenSecret: `${id}-tw-secret` };
  },
  facebook(fake: FakeProvider, id = '10158000111') {
    const token = `fb-${id}`;
    fake.facebook.set(token, {
      token,
      user: {
        id,
        name: 'Grace Hopper',
        email: 'grace@example.com',
        picture: { data: { url: 'https://scontent.example.com/grace.jpg' } },
      },
    });
    return { accessToken: token, accessTokenSecret: '' };
  },
  github(fake: FakeProvider, id = 583231, login = 'octocat') {
    const token = `gho_${id}`;
    fake.github.set(token, {
      token,
      user: {
        id,
        login,
        name: 'The Octocat',
        email: null,
        avatar_url: `https://avatars.example.com/u/${id}`,
      },
      emails: [
        { email: 'old@example.com', verified: false, primary: false },
        { email: 'octo@example.com', verified: true, primary: true },
      ],
    });
    return { accessToken: token, accessTokenSecret: '' };
  },
  keycloak(fake: FakeProvider, sub = 'f3b1c2d4-0000-4000-8000-000000000001') {
    const token = `kc-${sub}`;
    fake.oidc.set(token, {
      token,
      userinfo: {
        sub,
        name: 'Linus Torvalds',
        preferred_username: 'linus',
        email: 'linus@example.org',
        email_verified: true,
      },
    });
    return { accessToken: token, accessTokenSecret: '' };
  },
  google(fake: FakeProvider, sub = '110248495921238986420') {
    const token = `ya29.${sub}`;
    fake.google.set(token, {
      token,
      userinfo: {
        sub,
        name: 'Margaret Hamilton',
        email: 'margaret.hamilton@gmail.example',
        email_verified: true,
        picture: 'https://lh3.example.com/a/margaret',
      },
    });
    return { accessToken: token, accessTokenSecret: '' };
  },
};
