process.env.TEST_DB_ENGINE = 'postgres';
